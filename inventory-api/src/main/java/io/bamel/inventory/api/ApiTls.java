package io.bamel.inventory.api;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The files the API serves HTTPS with, all PEM: the certificate chain (the server's certificate
 * first, then its intermediates), the private key (PKCS#8 {@code BEGIN PRIVATE KEY}, or PKCS#1
 * {@code BEGIN RSA PRIVATE KEY} / SEC 1 {@code BEGIN EC PRIVATE KEY}; unencrypted), and optionally
 * the CA certificates that sign client certificates. With a client CA every client must present a
 * certificate it signed (the TLS handshake fails otherwise). The files are read at start and again
 * whenever their content changes, so a renewed certificate is served without a restart.
 *
 * @param certFile the certificate chain
 * @param keyFile the private key of the first certificate
 * @param clientCaFile the CA certificates for client certificates, or null for no client
 *     certificates
 */
public record ApiTls(Path certFile, Path keyFile, Path clientCaFile) {

  /** Requires the certificate and key files. */
  public ApiTls {
    Objects.requireNonNull(certFile, "certFile");
    Objects.requireNonNull(keyFile, "keyFile");
  }
}
