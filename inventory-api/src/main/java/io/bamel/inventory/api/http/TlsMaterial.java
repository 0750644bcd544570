package io.bamel.inventory.api.http;

import io.bamel.inventory.api.ApiTls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * What the files of an {@link ApiTls} hold, loaded and checked: the certificate chain, its private
 * key (which must match the first certificate), the client CA certificates if any, as in-memory key
 * stores for Jetty. {@link #fingerprint} tells whether the files changed since.
 */
record TlsMaterial(KeyStore keyStore, KeyStore trustStore, X509Certificate certificate) {

  /** The alias of the key entry. */
  static final String ALIAS = "bamel-api";

  /**
   * Loads and checks the files, with {@code password} protecting the in-memory key entry.
   *
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  static TlsMaterial load(ApiTls tls, char[] password) {
    List<X509Certificate> chain = PemFiles.certificates(tls.certFile());
    PrivateKey key = PemFiles.privateKey(tls.keyFile());
    PemFiles.requireMatch(key, chain.get(0), tls.keyFile(), tls.certFile());
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(ALIAS, key, password, chain.toArray(new X509Certificate[0]));
      KeyStore trust = null;
      if (tls.clientCaFile() != null) {
        trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (X509Certificate ca : PemFiles.certificates(tls.clientCaFile())) {
          trust.setCertificateEntry("client-ca-" + i++, ca);
        }
      }
      return new TlsMaterial(keys, trust, chain.get(0));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          tls.certFile() + ": the certificate and key cannot be used for TLS", e);
    }
  }

  /**
   * A digest of the files' contents (a missing file counts as empty), to notice a change whatever
   * the files' modification times say.
   */
  static String fingerprint(ApiTls tls) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Path file : new Path[] {tls.certFile(), tls.keyFile(), tls.clientCaFile()}) {
        if (file == null) {
          digest.update((byte) 0);
          continue;
        }
        byte[] content;
        try {
          content = Files.readAllBytes(file);
        } catch (IOException e) {
          content = new byte[0];
        }
        digest.update(
            Integer.toString(content.length).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        digest.update((byte) ':');
        digest.update(content);
      }
      return java.util.HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
