package io.bamel.power.tls;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Optional;

/**
 * X25519 keys as the JDK's {@code XEC} interfaces (RFC 7748 encodings, RFC 8410 DER), made by
 * {@link X25519KeyPairGenerator} and read by {@link X25519KeyAgreement}: a u-coordinate and a
 * scalar, each 32 bytes little-endian.
 */
final class X25519Keys {

  /** The length of a scalar and of a u-coordinate. */
  static final int LENGTH = 32;

  private static final String ALGORITHM = "XDH";

  /** SubjectPublicKeyInfo for id-X25519 (1.3.101.110) up to the key's 32 bytes (RFC 8410). */
  private static final byte[] X509_PREFIX = {
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00
  };

  /** OneAsymmetricKey (PKCS #8) for id-X25519 up to the scalar's 32 bytes (RFC 8410). */
  private static final byte[] PKCS8_PREFIX = {
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20
  };

  private X25519Keys() {}

  /** Whether {@code params} name X25519. */
  static boolean isX25519(AlgorithmParameterSpec params) {
    return params instanceof NamedParameterSpec named
        && named.getName().equalsIgnoreCase(NamedParameterSpec.X25519.getName());
  }

  /**
   * The 32 little-endian bytes of a public key's u-coordinate.
   *
   * @throws InvalidKeyException for a key of another curve, or a u-coordinate that does not fit
   */
  static byte[] littleEndianU(XECPublicKey key) throws InvalidKeyException {
    if (!isX25519(key.getParams())) {
      throw new InvalidKeyException("not an X25519 public key");
    }
    BigInteger u = key.getU();
    if (u.signum() < 0 || u.bitLength() > LENGTH * 8) {
      throw new InvalidKeyException("X25519 u-coordinate out of range");
    }
    // toByteArray may add a sign byte in front, which lowReversed leaves out
    return lowReversed(u.toByteArray());
  }

  /**
   * The last {@link #LENGTH} bytes of {@code bytes} (fewer when it is shorter, zeros then), in
   * reverse order: between a big-endian number and RFC 7748's little-endian encoding.
   */
  private static byte[] lowReversed(byte[] bytes) {
    byte[] reversed = new byte[LENGTH];
    for (int i = 0; i < Math.min(LENGTH, bytes.length); i++) {
      reversed[i] = bytes[bytes.length - 1 - i];
    }
    return reversed;
  }

  /** {@code value} after the DER {@code prefix} that announces it. */
  private static byte[] der(byte[] prefix, byte[] value) {
    byte[] encoded = Arrays.copyOf(prefix, prefix.length + LENGTH);
    System.arraycopy(value, 0, encoded, prefix.length, LENGTH);
    return encoded;
  }

  /** An X25519 public key: the u-coordinate, 32 bytes little-endian. */
  static final class PublicKey implements XECPublicKey {

    private static final long serialVersionUID = 1L;

    private final byte[] u;

    PublicKey(byte[] littleEndianU) {
      this.u = littleEndianU.clone();
    }

    @Override
    public BigInteger getU() {
      byte[] bigEndian = lowReversed(u);
      // RFC 7748 section 5: the most significant bit of the last byte is ignored for X25519
      bigEndian[0] &= 0x7f;
      return new BigInteger(1, bigEndian);
    }

    @Override
    public AlgorithmParameterSpec getParams() {
      return NamedParameterSpec.X25519;
    }

    @Override
    public String getAlgorithm() {
      return ALGORITHM;
    }

    @Override
    public String getFormat() {
      return "X.509";
    }

    @Override
    public byte[] getEncoded() {
      return der(X509_PREFIX, u);
    }
  }

  /** An X25519 private key: the scalar, 32 bytes, cleared by {@link #destroy()}. */
  static final class PrivateKey implements XECPrivateKey {

    private static final long serialVersionUID = 1L;

    private final byte[] scalar;
    private volatile boolean destroyed;

    PrivateKey(byte[] scalar) {
      this.scalar = scalar.clone();
    }

    @Override
    public Optional<byte[]> getScalar() {
      return destroyed ? Optional.empty() : Optional.of(scalar.clone());
    }

    @Override
    public AlgorithmParameterSpec getParams() {
      return NamedParameterSpec.X25519;
    }

    @Override
    public String getAlgorithm() {
      return ALGORITHM;
    }

    @Override
    public String getFormat() {
      return "PKCS#8";
    }

    @Override
    public byte[] getEncoded() {
      if (destroyed) {
        return null;
      }
      return der(PKCS8_PREFIX, scalar);
    }

    @Override
    public void destroy() {
      Arrays.fill(scalar, (byte) 0);
      destroyed = true;
    }

    @Override
    public boolean isDestroyed() {
      return destroyed;
    }
  }
}
