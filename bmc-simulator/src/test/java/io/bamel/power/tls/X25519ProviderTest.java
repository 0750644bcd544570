package io.bamel.power.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.sim.SelfSignedCertificate;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.security.spec.XECPublicKeySpec;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.KeyAgreement;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class X25519ProviderTest {

  private static final HexFormat HEX = HexFormat.of();

  // RFC 7748 section 6.1
  private static final String ALICE_PRIVATE =
      "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
  private static final String ALICE_PUBLIC =
      "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
  private static final String BOB_PRIVATE =
      "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
  private static final String BOB_PUBLIC =
      "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
  private static final String SHARED =
      "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

  private final X25519Provider provider = new X25519Provider();

  @AfterEach
  void uninstall() {
    Security.removeProvider(X25519Provider.NAME);
    System.clearProperty(X25519Provider.PROPERTY);
  }

  @Test
  void rfc7748VectorsGiveThePublicKeysAndTheSharedSecret() throws Exception {
    KeyPair alice = generate(HEX.parseHex(ALICE_PRIVATE));
    KeyPair bob = generate(HEX.parseHex(BOB_PRIVATE));

    assertThat(HEX.formatHex(uBytes(alice.getPublic()))).isEqualTo(ALICE_PUBLIC);
    assertThat(HEX.formatHex(uBytes(bob.getPublic()))).isEqualTo(BOB_PUBLIC);
    assertThat(HEX.formatHex(agree(alice.getPrivate(), bob.getPublic()))).isEqualTo(SHARED);
    assertThat(HEX.formatHex(agree(bob.getPrivate(), alice.getPublic()))).isEqualTo(SHARED);
  }

  @Test
  void agreesWithTheJdksX25519BothWaysAndItsKeyFactoryReadsTheKeys() throws Exception {
    KeyPairGenerator jdkGenerator = KeyPairGenerator.getInstance("XDH", "SunEC");
    jdkGenerator.initialize(NamedParameterSpec.X25519);
    KeyFactory jdkFactory = KeyFactory.getInstance("XDH", "SunEC");
    KeyPairGenerator ours = KeyPairGenerator.getInstance("XDH", provider);
    ours.initialize(NamedParameterSpec.X25519);
    for (int i = 0; i < 50; i++) {
      KeyPair mine = ours.generateKeyPair();
      KeyPair theirs = jdkGenerator.generateKeyPair();

      KeyAgreement jdk = KeyAgreement.getInstance("XDH", "SunEC");
      jdk.init(theirs.getPrivate());
      jdk.doPhase(mine.getPublic(), true);
      assertThat(agree(mine.getPrivate(), theirs.getPublic())).isEqualTo(jdk.generateSecret());

      XECPublicKey decoded =
          (XECPublicKey)
              jdkFactory.generatePublic(new X509EncodedKeySpec(mine.getPublic().getEncoded()));
      assertThat(decoded.getU()).isEqualTo(((XECPublicKey) mine.getPublic()).getU());
      XECPrivateKey decodedPrivate =
          (XECPrivateKey)
              jdkFactory.generatePrivate(new PKCS8EncodedKeySpec(mine.getPrivate().getEncoded()));
      assertThat(decodedPrivate.getScalar().orElseThrow())
          .isEqualTo(((XECPrivateKey) mine.getPrivate()).getScalar().orElseThrow());
    }
  }

  @Test
  void aSmallOrderPeerPointIsRefused() throws Exception {
    PrivateKey alice = generate(HEX.parseHex(ALICE_PRIVATE)).getPrivate();
    for (BigInteger u : new BigInteger[] {BigInteger.ZERO, BigInteger.ONE}) {
      PublicKey point =
          KeyFactory.getInstance("XDH", "SunEC")
              .generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, u));
      KeyAgreement agreement = KeyAgreement.getInstance("XDH", provider);
      agreement.init(alice);
      assertThatThrownBy(() -> agreement.doPhase(point, true))
          .isInstanceOf(InvalidKeyException.class)
          .hasMessage("Point has small order");
    }
  }

  @Test
  void otherCurvesAndOtherOutputsAreRefused() throws Exception {
    KeyPairGenerator ours = KeyPairGenerator.getInstance("XDH", provider);
    assertThatThrownBy(() -> ours.initialize(NamedParameterSpec.X448))
        .isInstanceOf(InvalidAlgorithmParameterException.class);
    KeyPairGenerator x448 = KeyPairGenerator.getInstance("XDH", "SunEC");
    x448.initialize(NamedParameterSpec.X448);
    KeyAgreement agreement = KeyAgreement.getInstance("XDH", provider);
    assertThatThrownBy(() -> agreement.init(x448.generateKeyPair().getPrivate()))
        .isInstanceOf(InvalidKeyException.class);

    KeyPair alice = generate(HEX.parseHex(ALICE_PRIVATE));
    KeyPair bob = generate(HEX.parseHex(BOB_PRIVATE));
    agreement.init(alice.getPrivate());
    agreement.doPhase(bob.getPublic(), true);
    assertThatThrownBy(() -> agreement.generateSecret("AES"))
        .hasMessageContaining("Unsupported secret key algorithm");
  }

  @Test
  void installedItServesX25519AndLeavesX448ToTheJdk() throws Exception {
    assertThat(X25519Provider.install()).isTrue();
    assertThat(X25519Provider.install()).isFalse();
    assertThat(Security.getProviders()[0].getName()).isEqualTo(X25519Provider.NAME);

    KeyPairGenerator x25519 = KeyPairGenerator.getInstance("XDH");
    x25519.initialize(NamedParameterSpec.X25519);
    KeyPair pair = x25519.generateKeyPair();
    assertThat(x25519.getProvider().getName()).isEqualTo(X25519Provider.NAME);
    KeyAgreement agreement = KeyAgreement.getInstance("XDH");
    agreement.init(pair.getPrivate());
    assertThat(agreement.getProvider().getName()).isEqualTo(X25519Provider.NAME);

    KeyPairGenerator x448 = KeyPairGenerator.getInstance("XDH");
    x448.initialize(NamedParameterSpec.X448);
    KeyPair other = x448.generateKeyPair();
    assertThat(x448.getProvider().getName()).isEqualTo("SunEC");
    KeyAgreement otherAgreement = KeyAgreement.getInstance("XDH");
    otherAgreement.init(other.getPrivate());
    assertThat(otherAgreement.getProvider().getName()).isEqualTo("SunEC");
  }

  @Test
  void theJdkPropertyKeepsTheJdksX25519() {
    System.setProperty(X25519Provider.PROPERTY, "jdk");

    assertThat(X25519Provider.install()).isFalse();
    assertThat(Security.getProvider(X25519Provider.NAME)).isNull();
  }

  @Test
  void tls13HandshakesCompleteOverX25519AndOverX448() throws Exception {
    X25519Provider.install();
    SelfSignedCertificate certificate = SelfSignedCertificate.generate();
    for (String group : new String[] {"x25519", "x448"}) {
      assertThat(echoOverTls(certificate, group)).isEqualTo("hello over " + group);
    }
  }

  /** One TLS 1.3 connection on loopback that may use only {@code group}; what came back. */
  private static String echoOverTls(SelfSignedCertificate certificate, String group)
      throws Exception {
    try (SSLServerSocket server =
        (SSLServerSocket)
            certificate
                .serverContext()
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      SSLParameters serverParameters = server.getSSLParameters();
      serverParameters.setNamedGroups(new String[] {group});
      server.setSSLParameters(serverParameters);
      CompletableFuture<Void> echo =
          CompletableFuture.runAsync(
              () -> {
                try (SSLSocket accepted = (SSLSocket) server.accept()) {
                  InputStream in = accepted.getInputStream();
                  byte[] line = in.readNBytes(("hello over " + group).length());
                  OutputStream out = accepted.getOutputStream();
                  out.write(line);
                  out.flush();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      try (SSLSocket client =
          (SSLSocket)
              trusting(certificate.certificate())
                  .getSocketFactory()
                  .createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
        SSLParameters parameters = client.getSSLParameters();
        parameters.setNamedGroups(new String[] {group});
        parameters.setProtocols(new String[] {"TLSv1.3"});
        client.setSSLParameters(parameters);
        client.getOutputStream().write(("hello over " + group).getBytes());
        client.getOutputStream().flush();
        String answer =
            new String(client.getInputStream().readNBytes(("hello over " + group).length()));
        echo.get(30, TimeUnit.SECONDS);
        assertThat(client.getSession().getProtocol()).isEqualTo("TLSv1.3");
        return answer;
      }
    }
  }

  private static SSLContext trusting(X509Certificate certificate) throws Exception {
    java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("sim", certificate);
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  /** A key pair of this provider whose random scalar is {@code scalar}. */
  private KeyPair generate(byte[] scalar) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("XDH", provider);
    generator.initialize(NamedParameterSpec.X25519, new FixedRandom(scalar));
    return generator.generateKeyPair();
  }

  private byte[] agree(PrivateKey mine, PublicKey theirs) throws Exception {
    KeyAgreement agreement = KeyAgreement.getInstance("XDH", provider);
    agreement.init(mine);
    agreement.doPhase(theirs, true);
    return agreement.generateSecret("TlsPremasterSecret").getEncoded();
  }

  /** The public key's u-coordinate as RFC 7748 writes it: 32 bytes, little-endian. */
  private static byte[] uBytes(PublicKey key) throws Exception {
    return X25519Keys.littleEndianU((XECPublicKey) key);
  }

  /** A "random" source that gives {@code bytes}: a known scalar for the key generator. */
  private static final class FixedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;

    FixedRandom(byte[] bytes) {
      this.bytes = bytes.clone();
    }

    @Override
    public void nextBytes(byte[] out) {
      System.arraycopy(bytes, 0, out, 0, out.length);
    }
  }
}
