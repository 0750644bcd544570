package io.bamel.inventory.leader;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One etcd lease that jetcd keeps alive for an owner that puts keys under it (a leader candidate, a
 * registered replica), and the owner's view of whether it still holds it.
 *
 * <p>The owner {@link #grant}s a lease when {@link #needsGrant()}; jetcd renews it every third of
 * the TTL from then on. When the keep-alive stream fails or ends, the lease is marked lost on the
 * owner's thread (the executor given) and the owner's {@code afterLoss} runs there, so the owner
 * can re-register at once. {@link #overdue()} says the lease is lost or has not been renewed for a
 * TTL: etcd may have deleted the keys under it and let another process take over, so the owner must
 * stop acting on them. {@link #drop()} stops renewing and revokes the lease (best effort), which
 * deletes those keys at once.
 *
 * <p>{@link #grant}, {@link #drop}, {@link #close} and {@link #id} are called on the owner's thread
 * only; {@link #overdue()} from any thread.
 */
public final class KeptLease implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KeptLease.class);

  private final Client client;
  private final Duration ttl;
  private final Duration timeout;
  private final Executor ownerThread;
  private final Runnable afterLoss;

  private long id;
  private CloseableClient keepAlive;
  private volatile long lastRenewal;
  private volatile boolean lost;
  private volatile boolean closed;

  /**
   * A lease of {@code ttl} (whole seconds, at least 1 s) whose requests wait at most {@code
   * timeout}; a lost keep-alive is handled on {@code ownerThread}, then {@code afterLoss} runs
   * there. Nothing is granted until {@link #grant()}.
   */
  public KeptLease(
      Client client, Duration ttl, Duration timeout, Executor ownerThread, Runnable afterLoss) {
    if (ttl.toSeconds() < 1) {
      throw new IllegalArgumentException("the lease TTL must be at least 1 s");
    }
    this.client = client;
    this.ttl = ttl;
    this.timeout = timeout;
    this.ownerThread = ownerThread;
    this.afterLoss = afterLoss;
  }

  /** Whether there is no live lease: none granted yet, dropped, or marked lost. */
  public boolean needsGrant() {
    return id == 0 || lost;
  }

  /**
   * Drops any previous lease and grants a new one, kept alive from now on; returns its id.
   *
   * @throws IllegalStateException when etcd does not grant it within the timeout
   */
  public long grant() {
    drop();
    id = EtcdRequests.await(client.getLeaseClient().grant(ttl.toSeconds()), timeout).getID();
    lost = false;
    lastRenewal = System.nanoTime();
    keepAlive = client.getLeaseClient().keepAlive(id, new Renewals(id));
    return id;
  }

  /** The current lease's id; 0 when none is held. */
  public long id() {
    return id;
  }

  /**
   * Marks the lease lost (the owner found its key gone): the next {@link #needsGrant()} is true.
   */
  public void markLost() {
    lost = true;
  }

  /** Whether the lease is lost or was not renewed for a TTL: keys under it may be gone. */
  public boolean overdue() {
    return lost || System.nanoTime() - lastRenewal > ttl.toNanos();
  }

  /** Stops renewing and revokes the lease (best effort), which deletes the keys put under it. */
  public void drop() {
    if (keepAlive != null) {
      keepAlive.close();
      keepAlive = null;
    }
    if (id != 0) {
      long dropped = id;
      id = 0;
      try {
        client.getLeaseClient().revoke(dropped).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.debug("revoking lease {} failed: {}", dropped, e.toString());
      }
    }
  }

  /** Drops the lease for good: later keep-alive failures are ignored. */
  @Override
  public void close() {
    closed = true;
    drop();
  }

  /** Records renewals of one lease; a failed or ended stream marks that lease lost. */
  private final class Renewals implements StreamObserver<LeaseKeepAliveResponse> {
    private final long renewed;

    Renewals(long renewed) {
      this.renewed = renewed;
    }

    @Override
    public void onNext(LeaseKeepAliveResponse response) {
      if (response.getTTL() > 0) {
        lastRenewal = System.nanoTime();
      }
    }

    @Override
    public void onError(Throwable error) {
      LOG.debug("keep-alive of lease {} failed: {}", renewed, error.toString());
      if (closed) {
        return;
      }
      try {
        ownerThread.execute(
            () -> {
              if (id == renewed) {
                lost = true;
              }
              afterLoss.run();
            });
      } catch (RejectedExecutionException e) {
        // the owner is closing
      }
    }

    @Override
    public void onCompleted() {
      onError(new IllegalStateException("keep-alive stream ended"));
    }
  }
}
