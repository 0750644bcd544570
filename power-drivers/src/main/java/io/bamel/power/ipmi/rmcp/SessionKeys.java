package io.bamel.power.ipmi.rmcp;

import java.util.Arrays;

/**
 * The keys of one established RMCP+ session (IPMI v2.0 section 13.32): K1 authenticates each packet
 * (the integrity AuthCode), the first 16 bytes of K2 are the AES-CBC-128 key. Derived from the
 * session integrity key by {@link Rakp}; the password itself is not kept.
 *
 * @param suite the negotiated cipher suite
 * @param k1 the integrity key
 * @param k2 the confidentiality key material
 */
public record SessionKeys(CipherSuite suite, byte[] k1, byte[] k2) {

  /** Keys of a suite without integrity or confidentiality (0, 1, 15): none needed. */
  static SessionKeys none(CipherSuite suite) {
    return new SessionKeys(suite, new byte[0], new byte[0]);
  }

  /** The AES key: K2's first 16 bytes. */
  byte[] aesKey() {
    return Arrays.copyOf(k2, 16);
  }

  /** Overwrites both keys (the session is closed). */
  void clear() {
    Arrays.fill(k1, (byte) 0);
    Arrays.fill(k2, (byte) 0);
  }

  @Override
  public String toString() {
    return "SessionKeys[suite=" + suite.id() + "]";
  }
}
