package io.bamel.power.tls;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import org.bouncycastle.math.ec.rfc7748.X25519;

/**
 * {@code KeyPairGenerator.getInstance("XDH")} for X25519 only ({@link X25519Provider}): a random
 * scalar (clamped as RFC 7748 says) and its public u-coordinate, computed by Bouncy Castle's
 * constant-time X25519. Initialised for another curve (X448) it refuses, and the JDK's {@code
 * KeyPairGenerator} then falls over to the next provider's generator (SunEC).
 */
public final class X25519KeyPairGenerator extends KeyPairGeneratorSpi {

  /** The key size in bits of X25519, as the JDK's XDH generator takes it. */
  private static final int KEY_SIZE = 255;

  private SecureRandom random;

  @Override
  public void initialize(int keysize, SecureRandom random) {
    if (keysize != KEY_SIZE) {
      throw new InvalidParameterException("only X25519 (255 bits) here, not " + keysize);
    }
    this.random = random;
  }

  @Override
  public void initialize(AlgorithmParameterSpec params, SecureRandom random)
      throws InvalidAlgorithmParameterException {
    if (!X25519Keys.isX25519(params)) {
      throw new InvalidAlgorithmParameterException("only X25519 here, not " + params);
    }
    this.random = random;
  }

  @Override
  public KeyPair generateKeyPair() {
    byte[] scalar = new byte[X25519Keys.LENGTH];
    byte[] u = new byte[X25519Keys.LENGTH];
    X25519.generatePrivateKey(random != null ? random : DefaultRandom.INSTANCE, scalar);
    X25519.generatePublicKey(scalar, 0, u, 0);
    KeyPair pair = new KeyPair(new X25519Keys.PublicKey(u), new X25519Keys.PrivateKey(scalar));
    java.util.Arrays.fill(scalar, (byte) 0);
    return pair;
  }

  /** The platform's default {@link SecureRandom}, made when first needed. */
  private static final class DefaultRandom {
    static final SecureRandom INSTANCE = new SecureRandom();
  }
}
