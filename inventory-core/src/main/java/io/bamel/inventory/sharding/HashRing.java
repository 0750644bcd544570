package io.bamel.inventory.sharding;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A consistent hash ring that assigns each node to one member (a live {@code bamel server}), in the
 * manner of Ironic's conductor hash ring: every member owns {@code partitions} points on a 64-bit
 * ring (the MD5 of {@code member#i}), and a node belongs to the member owning the first point at or
 * after the MD5 of its id. Every process that sees the same member set computes the same owners,
 * whatever the order it learned them in; when a member joins or leaves, only about {@code 1/n} of
 * the nodes change owner, and only to or from that member. Immutable and thread-safe.
 */
public final class HashRing {

  /**
   * Points per member: enough for an even spread (within a few percent) at a handful of members.
   */
  public static final int DEFAULT_PARTITIONS = 128;

  private static final HashRing EMPTY = new HashRing(Set.of(), new long[0], new String[0]);

  private final Set<String> members;
  private final long[] points;
  private final String[] owners;

  private HashRing(Set<String> members, long[] points, String[] owners) {
    this.members = members;
    this.points = points;
    this.owners = owners;
  }

  /** A ring of {@code members} with {@link #DEFAULT_PARTITIONS} points each. */
  public static HashRing of(Collection<String> members) {
    return of(members, DEFAULT_PARTITIONS);
  }

  /** A ring of {@code members} with {@code partitions} points each. */
  public static HashRing of(Collection<String> members, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1");
    }
    Set<String> sorted = new TreeSet<>(members);
    if (sorted.isEmpty()) {
      return EMPTY;
    }
    record Point(long hash, String owner) {}
    Point[] all = new Point[sorted.size() * partitions];
    int i = 0;
    for (String member : sorted) {
      for (int p = 0; p < partitions; p++) {
        all[i++] = new Point(hash(member + "#" + p), member);
      }
    }
    // Ties (vanishingly rare) go to the smaller member name, so every process agrees.
    Arrays.sort(
        all,
        (a, b) ->
            a.hash() != b.hash()
                ? Long.compareUnsigned(a.hash(), b.hash())
                : a.owner().compareTo(b.owner()));
    long[] points = new long[all.length];
    String[] owners = new String[all.length];
    for (int k = 0; k < all.length; k++) {
      points[k] = all[k].hash();
      owners[k] = all[k].owner();
    }
    return new HashRing(Set.copyOf(sorted), points, owners);
  }

  /** The members on the ring. */
  public Set<String> members() {
    return members;
  }

  /** The member that owns {@code nodeId}; empty when the ring has no member. */
  public Optional<String> owner(String nodeId) {
    if (points.length == 0) {
      return Optional.empty();
    }
    long h = hash(nodeId);
    int lo = 0;
    int hi = points.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(points[mid], h) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return Optional.of(owners[lo == points.length ? 0 : lo]);
  }

  /** Whether {@code member} owns {@code nodeId}. */
  public boolean owns(String member, String nodeId) {
    return owner(nodeId).map(member::equals).orElse(false);
  }

  private static long hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has MD5", e);
    }
  }

  @Override
  public String toString() {
    return "HashRing" + new TreeSet<>(members);
  }
}
