package io.bamel.power.tls;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.KeyAgreementSpi;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.math.ec.rfc7748.X25519;

/**
 * {@code KeyAgreement.getInstance("XDH")} for X25519 only ({@link X25519Provider}), as the JDK's
 * own behaves: two parties, the private key any {@link XECPrivateKey} of X25519 with its scalar,
 * the peer's any {@link XECPublicKey} of X25519 (the JDK's KeyFactory makes them from a TLS key
 * share); a shared secret of all zeros (a small-order peer point, RFC 7748 section 6.1) is refused
 * with "Point has small order"; {@link #engineGenerateSecret(String)} gives {@code
 * TlsPremasterSecret} or {@code Generic} keys. Initialised with a key of another curve (X448) it
 * refuses, and the JDK's {@code KeyAgreement} then chooses the next provider's (SunEC). The
 * arithmetic is Bouncy Castle's constant-time X25519.
 */
public final class X25519KeyAgreement extends KeyAgreementSpi {

  private byte[] scalar;
  private byte[] secret;

  @Override
  protected void engineInit(Key key, SecureRandom random) throws InvalidKeyException {
    if (!(key instanceof XECPrivateKey privateKey)
        || !X25519Keys.isX25519(privateKey.getParams())) {
      throw new InvalidKeyException("not an X25519 private key");
    }
    byte[] value =
        privateKey.getScalar().orElseThrow(() -> new InvalidKeyException("No private key value"));
    if (value.length != X25519Keys.LENGTH) {
      throw new InvalidKeyException("an X25519 scalar has 32 bytes, not " + value.length);
    }
    clear();
    this.scalar = value;
  }

  @Override
  protected void engineInit(Key key, AlgorithmParameterSpec params, SecureRandom random)
      throws InvalidKeyException, InvalidAlgorithmParameterException {
    if (params != null && !X25519Keys.isX25519(params)) {
      throw new InvalidAlgorithmParameterException("only X25519 here, not " + params);
    }
    engineInit(key, random);
  }

  @Override
  protected Key engineDoPhase(Key key, boolean lastPhase) throws InvalidKeyException {
    if (scalar == null) {
      throw new IllegalStateException("Not initialized");
    }
    if (secret != null) {
      throw new IllegalStateException("Phase already executed");
    }
    if (!lastPhase) {
      throw new IllegalStateException("Only two party agreement supported, lastPhase must be true");
    }
    if (!(key instanceof XECPublicKey publicKey)) {
      throw new InvalidKeyException("Unsupported key type");
    }
    byte[] u = X25519Keys.littleEndianU(publicKey);
    byte[] computed = new byte[X25519Keys.LENGTH];
    if (!X25519.calculateAgreement(scalar, 0, u, 0, computed, 0)) {
      throw new InvalidKeyException("Point has small order");
    }
    secret = computed;
    return null;
  }

  @Override
  protected byte[] engineGenerateSecret() {
    if (secret == null) {
      throw new IllegalStateException("Not initialized correctly");
    }
    byte[] result = secret;
    secret = null;
    return result;
  }

  @Override
  protected int engineGenerateSecret(byte[] sharedSecret, int offset) throws ShortBufferException {
    if (secret == null) {
      throw new IllegalStateException("Not initialized correctly");
    }
    if (secret.length > sharedSecret.length - offset) {
      throw new ShortBufferException(
          "Need "
              + secret.length
              + " bytes, only "
              + (sharedSecret.length - offset)
              + " available");
    }
    byte[] result = engineGenerateSecret();
    System.arraycopy(result, 0, sharedSecret, offset, result.length);
    Arrays.fill(result, (byte) 0);
    return result.length;
  }

  @Override
  protected SecretKey engineGenerateSecret(String algorithm) throws NoSuchAlgorithmException {
    if (algorithm == null) {
      throw new NoSuchAlgorithmException("Algorithm must not be null");
    }
    if (!algorithm.equalsIgnoreCase("TlsPremasterSecret")
        && !algorithm.equalsIgnoreCase("Generic")) {
      throw new NoSuchAlgorithmException("Unsupported secret key algorithm: " + algorithm);
    }
    byte[] result = engineGenerateSecret();
    SecretKey key = new SecretKeySpec(result, algorithm);
    Arrays.fill(result, (byte) 0);
    return key;
  }

  private void clear() {
    if (scalar != null) {
      Arrays.fill(scalar, (byte) 0);
    }
    scalar = null;
    secret = null;
  }
}
