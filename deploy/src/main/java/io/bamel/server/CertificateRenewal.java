package io.bamel.server;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;

/**
 * Decides, at start, which certificates of the embedded etcd to make anew; pure (the files are read
 * and written by {@link EtcdCertificates}). The CA is valid for {@link #CA_VALIDITY} and is made
 * anew, with both leaves, when it is missing, has no key, or has less than {@link #LEAF_VALIDITY}
 * left (so a leaf made now never outlives its CA). A leaf (server or client) is valid for {@link
 * #LEAF_VALIDITY} and is made anew when it is missing, not signed by the current CA, not yet valid,
 * or has less than {@link #LEAF_RENEW_BEFORE} left: a bamel restarted at least once every two years
 * never runs on an expired certificate.
 */
final class CertificateRenewal {

  /** How long a new CA is valid. */
  static final Duration CA_VALIDITY = Duration.ofDays(10 * 365);

  /** How long a new server or client certificate is valid. */
  static final Duration LEAF_VALIDITY = Duration.ofDays(3 * 365);

  /** A leaf with less than this left is made anew at start. */
  static final Duration LEAF_RENEW_BEFORE = Duration.ofDays(365);

  /**
   * What to make anew.
   *
   * @param authority the CA (and then both leaves)
   * @param server the server certificate
   * @param client the client certificate
   */
  record Plan(boolean authority, boolean server, boolean client) {

    /** Whether everything is kept as it is. */
    boolean nothing() {
      return !authority && !server && !client;
    }
  }

  private CertificateRenewal() {}

  /**
   * The plan for the certificates found (null: missing or unreadable).
   *
   * @param ca the CA certificate
   * @param caKeyPresent whether the CA's key was found
   * @param server the server certificate
   * @param client the client certificate
   * @param now the current time
   */
  static Plan plan(
      X509Certificate ca,
      boolean caKeyPresent,
      X509Certificate server,
      X509Certificate client,
      Instant now) {
    if (ca == null || !caKeyPresent || !validFor(ca, now, LEAF_VALIDITY)) {
      return new Plan(true, true, true);
    }
    return new Plan(false, renewLeaf(server, ca, now), renewLeaf(client, ca, now));
  }

  private static boolean renewLeaf(X509Certificate leaf, X509Certificate ca, Instant now) {
    return leaf == null || !signedBy(leaf, ca) || !validFor(leaf, now, LEAF_RENEW_BEFORE);
  }

  /** Whether {@code cert} is valid now and still for at least {@code margin}. */
  static boolean validFor(X509Certificate cert, Instant now, Duration margin) {
    return !cert.getNotBefore().toInstant().isAfter(now)
        && cert.getNotAfter().toInstant().isAfter(now.plus(margin));
  }

  /** Whether {@code ca}'s key signed {@code cert}. */
  static boolean signedBy(X509Certificate cert, X509Certificate ca) {
    try {
      cert.verify(ca.getPublicKey());
      return cert.getIssuerX500Principal().equals(ca.getSubjectX500Principal());
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
