package io.bamel.power.tls;

import java.security.Provider;
import java.security.Security;
import java.util.List;
import java.util.function.Supplier;

/**
 * A JCA provider of the X25519 key exchange alone ({@code KeyPairGenerator} and {@code
 * KeyAgreement} "XDH", alias "X25519"), computed by Bouncy Castle's constant-time X25519, which
 * takes about a third of the CPU of the JDK's own (SunEC's, pure Java).
 *
 * <p>Why: every TLS 1.3 handshake, a resumed one too, makes an X25519 exchange on each side, and
 * BMCs close idle connections within seconds, so polling a fleet's power states opens a new TLS
 * connection per read, and the JDK's X25519 was a large share of the Redfish driver's CPU per read
 * (figures: docs/benchmarks.md, "Figures behind the code"). Installed first among the providers
 * ({@link #install()}: {@code bamel server} and {@code bamel demo}, the simulator's main and the
 * benchmarks do), it is what the JDK's TLS (SunJSSE) and anything else in the process asking for
 * "XDH" gets; for X448 keys or parameters its services refuse, and the JDK's {@code
 * KeyPairGenerator} and {@code KeyAgreement} go on to the next provider (SunEC). Nothing else
 * changes: no other algorithm, no key encoding (the JDK's {@code KeyFactory} still decodes peers'
 * keys), no TLS setting.
 *
 * <p>{@code -Dbamel.tls.x25519=jdk} keeps the JDK's X25519 (for example where a site's policy
 * allows only the JDK's providers, or a FIPS provider is configured).
 */
public final class X25519Provider extends Provider {

  private static final long serialVersionUID = 1L;

  /** The provider's name, as {@link Security#getProvider(String)} finds it. */
  public static final String NAME = "BamelX25519";

  /** The system property that, set to {@code jdk}, keeps the JDK's X25519. */
  public static final String PROPERTY = "bamel.tls.x25519";

  private static final String BOUNCY_CASTLE_X25519 = "org.bouncycastle.math.ec.rfc7748.X25519";

  private static final List<String> ALIASES = List.of("X25519", "OID.1.3.101.110", "1.3.101.110");

  /** A provider with the two services; {@link #install()} puts one first in the JVM. */
  public X25519Provider() {
    super(NAME, "1.0", "X25519 key pairs and agreement by Bouncy Castle's rfc7748.X25519");
    putService(
        new DirectService(
            this, "KeyPairGenerator", X25519KeyPairGenerator.class, X25519KeyPairGenerator::new));
    putService(
        new DirectService(this, "KeyAgreement", X25519KeyAgreement.class, X25519KeyAgreement::new));
  }

  /**
   * Makes this provider the first of the JVM's, once; does nothing when it already is installed,
   * when {@value #PROPERTY} is {@code jdk}, or when Bouncy Castle is not on the class path.
   * Thread-safe.
   *
   * @return whether the provider was installed by this call
   */
  public static synchronized boolean install() {
    if ("jdk".equalsIgnoreCase(System.getProperty(PROPERTY, "").trim())
        || Security.getProvider(NAME) != null
        || !bouncyCastlePresent()) {
      return false;
    }
    Security.insertProviderAt(new X25519Provider(), 1);
    return true;
  }

  /**
   * Whether Bouncy Castle's X25519 is on the class path: a process without it (the command line's
   * client commands run on a reduced class path) keeps the JDK's X25519 rather than failing in its
   * first handshake.
   */
  private static boolean bouncyCastlePresent() {
    try {
      Class.forName(BOUNCY_CASTLE_X25519, false, X25519Provider.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** A service made by a constructor reference, not by reflection on a class name. */
  private static final class DirectService extends Service {

    private final Supplier<Object> factory;

    DirectService(
        Provider provider, String type, Class<?> implementation, Supplier<Object> factory) {
      super(provider, type, "XDH", implementation.getName(), ALIASES, null);
      this.factory = factory;
    }

    @Override
    public Object newInstance(Object constructorParameter) {
      return factory.get();
    }
  }
}
