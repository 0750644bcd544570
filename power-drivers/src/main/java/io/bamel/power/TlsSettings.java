package io.bamel.power;

import java.nio.file.Path;

/**
 * How to verify a BMC's TLS certificate. The default verifies against the JVM's trust store.
 *
 * @param caFile a PEM bundle of CA certificates to trust instead of the JVM's (or {@code null})
 * @param insecure skip verification entirely; an explicit per-node choice, never a default
 * @param pinnedSha256 the SHA-256 fingerprint of the server's certificate to accept (hex, colons
 *     optional), or {@code null}
 */
public record TlsSettings(Path caFile, boolean insecure, String pinnedSha256) {

  /** Verify against the JVM's trust store. */
  public static final TlsSettings DEFAULT = new TlsSettings(null, false, null);

  /** Verify against the CA certificates in a PEM file. */
  public static TlsSettings caBundle(Path caFile) {
    return new TlsSettings(caFile, false, null);
  }

  /** Skip verification (the explicit opt-in). */
  public static TlsSettings insecureSkipVerify() {
    return new TlsSettings(null, true, null);
  }

  /** Accept exactly the certificate with this SHA-256 fingerprint. */
  public static TlsSettings pinned(String sha256) {
    return new TlsSettings(null, false, sha256);
  }
}
