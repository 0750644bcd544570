package io.bamel.power.tls;

import java.util.Arrays;
import java.util.Set;

/**
 * Which key exchange groups the TLS connections to one server offer, learnt from its handshakes.
 *
 * <p>The JDK's TLS 1.3 client puts a key share of two kinds of group in every ClientHello (X25519
 * and P-256 with the default groups), so that a server supporting either answers without a second
 * round trip. Each share is a key pair generated for the connection, and the server uses one of
 * them. Where every read opens a new connection (BMCs close idle connections within seconds, and a
 * node's power state is read once a minute) the unused P-256 key pair costs about a fifth of the
 * client's CPU per read.
 *
 * <p>So once the server has completed a TLS 1.3 handshake, later connections offer only the X25519
 * family ({@code x25519}, {@code x448}, in the configured order): one key share. A server that
 * refuses such a handshake (a TLS 1.3 server must support P-256, need not support X25519) is
 * offered every configured group again from then on, and the caller sends the request that met the
 * refusal once more: it failed in the handshake, before any byte of it left. Nothing changes where
 * the configured groups hold only one kind (one share already), or hold a group this class does not
 * know (a hybrid post-quantum group, a site's own {@code jdk.tls.namedGroups}), which it never
 * drops; nor for a server that answered TLS 1.2, where the groups also choose the TLS 1.2 key
 * exchange.
 *
 * <p>Thread-safe; one instance per server.
 */
public final class KeyShareGroups {

  /** The groups whose kind this class knows: the JDK's classic ECDHE, XDH and FFDHE groups. */
  private static final Set<String> KNOWN =
      Set.of(
          "x25519",
          "x448",
          "secp256r1",
          "secp384r1",
          "secp521r1",
          "ffdhe2048",
          "ffdhe3072",
          "ffdhe4096",
          "ffdhe6144",
          "ffdhe8192");

  /** The X25519 family: one key share between them. */
  private static final Set<String> XDH = Set.of("x25519", "x448");

  private static final String TLS_1_3 = "TLSv1.3";

  /** What the connections offer. */
  public enum Offer {
    /** Every configured group, until the server has completed a TLS 1.3 handshake. */
    LEARNING,
    /** The X25519 family alone: the server completed a TLS 1.3 handshake. */
    ONE_SHARE,
    /** Every configured group for good: the server refused the X25519 family alone. */
    ALL
  }

  private volatile Offer offer = Offer.LEARNING;

  /** What the connections offer now. */
  public Offer offer() {
    return offer;
  }

  /**
   * The groups a new connection offers, given the ones it is configured with; {@code null} keeps
   * the configured ones.
   */
  public String[] groupsFor(String[] configured) {
    return offer == Offer.ONE_SHARE ? oneShare(configured) : null;
  }

  /** A handshake completed with {@code protocol} ({@code TLSv1.3}, {@code TLSv1.2}, ...). */
  public void completed(String protocol) {
    if (offer == Offer.LEARNING && TLS_1_3.equals(protocol)) {
      offer = Offer.ONE_SHARE;
    }
  }

  /**
   * A handshake failed. Returns whether connections offered the X25519 family alone, which they no
   * longer do: then the request that met the failure may be sent once more.
   */
  public synchronized boolean refused() {
    if (offer != Offer.ONE_SHARE) {
      return false;
    }
    offer = Offer.ALL;
    return true;
  }

  /**
   * The X25519 family of {@code configured}, in its order; {@code null} where that would not drop a
   * share or where {@code configured} holds a group of an unknown kind.
   */
  static String[] oneShare(String[] configured) {
    if (configured == null || !KNOWN.containsAll(Arrays.asList(configured))) {
      return null;
    }
    String[] xdh = Arrays.stream(configured).filter(XDH::contains).toArray(String[]::new);
    return xdh.length == 0 || xdh.length == configured.length ? null : xdh;
  }
}
