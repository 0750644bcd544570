package io.bamel.power.ipmi.rmcp;

import java.util.Optional;

/**
 * An RMCP+ cipher suite this client implements (IPMI v2.0 rev. 1.1, table 22-20): its
 * authentication (RAKP), integrity and confidentiality algorithm numbers as Open Session carries
 * them. Suites 0 to 3 use RAKP-HMAC-SHA1 (or none), 15 to 17 RAKP-HMAC-SHA256; the MD5 suites (4 to
 * 14) are not implemented. Pure.
 *
 * @param id the cipher suite number
 * @param authentication 0 none, 1 RAKP-HMAC-SHA1, 3 RAKP-HMAC-SHA256
 * @param integrity 0 none, 1 HMAC-SHA1-96, 4 HMAC-SHA256-128
 * @param confidentiality 0 none, 1 AES-CBC-128
 */
public record CipherSuite(int id, int authentication, int integrity, int confidentiality) {

  /** Authentication algorithm RAKP-none. */
  public static final int AUTH_NONE = 0;

  /** Authentication algorithm RAKP-HMAC-SHA1. */
  public static final int AUTH_HMAC_SHA1 = 1;

  /** Authentication algorithm RAKP-HMAC-SHA256. */
  public static final int AUTH_HMAC_SHA256 = 3;

  /** Integrity algorithm HMAC-SHA1-96. */
  public static final int INTEGRITY_HMAC_SHA1_96 = 1;

  /** Integrity algorithm HMAC-SHA256-128. */
  public static final int INTEGRITY_HMAC_SHA256_128 = 4;

  /** Confidentiality algorithm AES-CBC-128. */
  public static final int CONFIDENTIALITY_AES_CBC_128 = 1;

  /** The suite numbered {@code id}, if this client implements it (0-3, 15-17). */
  public static Optional<CipherSuite> of(int id) {
    return Optional.ofNullable(
        switch (id) {
          case 0 -> new CipherSuite(0, 0, 0, 0);
          case 1 -> new CipherSuite(1, AUTH_HMAC_SHA1, 0, 0);
          case 2 -> new CipherSuite(2, AUTH_HMAC_SHA1, INTEGRITY_HMAC_SHA1_96, 0);
          case 3 ->
              new CipherSuite(
                  3, AUTH_HMAC_SHA1, INTEGRITY_HMAC_SHA1_96, CONFIDENTIALITY_AES_CBC_128);
          case 15 -> new CipherSuite(15, AUTH_HMAC_SHA256, 0, 0);
          case 16 -> new CipherSuite(16, AUTH_HMAC_SHA256, INTEGRITY_HMAC_SHA256_128, 0);
          case 17 ->
              new CipherSuite(
                  17, AUTH_HMAC_SHA256, INTEGRITY_HMAC_SHA256_128, CONFIDENTIALITY_AES_CBC_128);
          default -> null;
        });
  }

  /** The JCE name of the RAKP HMAC ({@code HmacSHA1} or {@code HmacSHA256}), null for none. */
  String rakpHmac() {
    return switch (authentication) {
      case AUTH_HMAC_SHA1 -> "HmacSHA1";
      case AUTH_HMAC_SHA256 -> "HmacSHA256";
      default -> null;
    };
  }

  /** The length of RAKP 4's integrity check value: 12 for SHA-1, 16 for SHA-256, 0 for none. */
  int rakp4Length() {
    return switch (authentication) {
      case AUTH_HMAC_SHA1 -> 12;
      case AUTH_HMAC_SHA256 -> 16;
      default -> 0;
    };
  }

  /** The JCE name of the integrity HMAC, null for none. */
  String integrityHmac() {
    return switch (integrity) {
      case INTEGRITY_HMAC_SHA1_96 -> "HmacSHA1";
      case INTEGRITY_HMAC_SHA256_128 -> "HmacSHA256";
      default -> null;
    };
  }

  /** The AuthCode length of a session packet: 12 (SHA1-96), 16 (SHA256-128) or 0. */
  int authCodeLength() {
    return switch (integrity) {
      case INTEGRITY_HMAC_SHA1_96 -> 12;
      case INTEGRITY_HMAC_SHA256_128 -> 16;
      default -> 0;
    };
  }

  /** Whether session payloads are encrypted (AES-CBC-128). */
  boolean encrypted() {
    return confidentiality == CONFIDENTIALITY_AES_CBC_128;
  }
}
