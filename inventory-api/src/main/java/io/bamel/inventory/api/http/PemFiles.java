package io.bamel.inventory.api.http;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads PEM files for the API's TLS: certificates ({@code BEGIN CERTIFICATE}, one or more) and an
 * unencrypted private key (PKCS#8 {@code BEGIN PRIVATE KEY}, PKCS#1 {@code BEGIN RSA PRIVATE KEY}
 * or SEC 1 {@code BEGIN EC PRIVATE KEY}), and checks that a key belongs to a certificate. Failures
 * are {@link IllegalArgumentException}s naming the file and what is wrong, never key material.
 */
final class PemFiles {

  private PemFiles() {}

  /** The certificates in {@code file}, in order; at least one. */
  static List<X509Certificate> certificates(Path file) {
    List<X509Certificate> certs = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    for (Object item : read(file)) {
      if (item instanceof X509CertificateHolder holder) {
        try {
          certs.add(converter.getCertificate(holder));
        } catch (CertificateException e) {
          throw new IllegalArgumentException(file + ": a certificate cannot be decoded", e);
        }
      }
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException(
          file + ": no PEM certificate (-----BEGIN CERTIFICATE-----) found");
    }
    return certs;
  }

  /** The one private key in {@code file}. */
  static PrivateKey privateKey(Path file) {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    PrivateKey key = null;
    for (Object item : read(file)) {
      PrivateKey found;
      try {
        if (item instanceof PrivateKeyInfo info) {
          found = converter.getPrivateKey(info);
        } else if (item instanceof PEMKeyPair pair) {
          found = converter.getKeyPair(pair).getPrivate();
        } else if (item instanceof PKCS8EncryptedPrivateKeyInfo
            || item instanceof PEMEncryptedKeyPair) {
          throw new IllegalArgumentException(
              file
                  + ": the private key is encrypted; give an unencrypted key readable only by"
                  + " bamel's user");
        } else {
          continue;
        }
      } catch (IOException e) {
        throw new IllegalArgumentException(file + ": the private key cannot be decoded", e);
      }
      if (key != null) {
        throw new IllegalArgumentException(file + ": more than one private key");
      }
      key = found;
    }
    if (key == null) {
      throw new IllegalArgumentException(
          file + ": no PEM private key (PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY) found");
    }
    return key;
  }

  /**
   * Checks that {@code key} is the private key of {@code cert}'s public key, by signing and
   * verifying a test message.
   *
   * @throws IllegalArgumentException naming both files when it is not
   */
  static void requireMatch(PrivateKey key, X509Certificate cert, Path keyFile, Path certFile) {
    PublicKey publicKey = cert.getPublicKey();
    String algorithm =
        switch (publicKey.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519" -> "Ed25519";
          case "Ed448" -> "Ed448";
          default -> null;
        };
    if (algorithm == null) {
      throw new IllegalArgumentException(
          certFile + ": unsupported key algorithm " + publicKey.getAlgorithm());
    }
    boolean matches;
    try {
      byte[] message = "bamel key check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(message);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(publicKey);
      verifier.update(message);
      matches = verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      matches = false;
    }
    if (!matches) {
      throw new IllegalArgumentException(
          keyFile + " is not the private key of the first certificate in " + certFile);
    }
  }

  private static List<Object> read(Path file) {
    List<Object> items = new ArrayList<>();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
        PEMParser parser = new PEMParser(reader)) {
      Object item;
      while ((item = parser.readObject()) != null) {
        items.add(item);
      }
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file", e);
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IllegalArgumentException(file + ": not readable by bamel's user", e);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(file + ": not a well-formed PEM file", e);
    }
    return items;
  }
}
