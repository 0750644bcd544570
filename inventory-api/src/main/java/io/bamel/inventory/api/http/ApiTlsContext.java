package io.bamel.inventory.api.http;

import io.bamel.inventory.api.ApiTls;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API's TLS: a Jetty {@link SslContextFactory.Server} built from the PEM files of an {@link
 * ApiTls} (TLS 1.2 and 1.3; client certificates required when a client CA is given), and, while
 * started, a check every interval of whether the files' contents changed: a changed, valid set is
 * loaded into the factory (new connections get the new certificate, open ones keep theirs); an
 * invalid one (say a certificate written before its key) is logged and the old one kept until the
 * files change again.
 */
public final class ApiTlsContext extends AbstractLifeCycle {

  private static final Logger LOG = LoggerFactory.getLogger(ApiTlsContext.class);

  private final ApiTls tls;
  private final long intervalMillis;
  private final char[] password;
  private final SslContextFactory.Server factory = new SslContextFactory.Server();
  private volatile String loadedFingerprint;
  private volatile String triedFingerprint;
  private ScheduledExecutorService scanner;

  /**
   * Loads the files now.
   *
   * @throws IllegalArgumentException naming the file and what is wrong with it
   */
  public ApiTlsContext(ApiTls tls, java.time.Duration interval) {
    this.tls = tls;
    this.intervalMillis = Math.max(10, interval.toMillis());
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    this.password = Base64.getEncoder().encodeToString(random).toCharArray();
    String fingerprint = TlsMaterial.fingerprint(tls);
    TlsMaterial material = TlsMaterial.load(tls, password);
    configure(factory, material);
    factory.setIncludeProtocols("TLSv1.3", "TLSv1.2");
    factory.setNeedClientAuth(tls.clientCaFile() != null);
    loadedFingerprint = fingerprint;
    triedFingerprint = fingerprint;
    LOG.info(
        "API TLS: certificate {} from {} (valid until {}){}",
        material.certificate().getSubjectX500Principal().getName(),
        tls.certFile(),
        material.certificate().getNotAfter().toInstant(),
        tls.clientCaFile() == null ? "" : "; client certificates from " + tls.clientCaFile());
  }

  /** The Jetty factory to build the connector with. */
  SslContextFactory.Server factory() {
    return factory;
  }

  private void configure(SslContextFactory f, TlsMaterial material) {
    f.setKeyStore(material.keyStore());
    f.setKeyStorePassword(new String(password));
    f.setKeyManagerPassword(new String(password));
    f.setCertAlias(TlsMaterial.ALIAS);
    if (material.trustStore() != null) {
      f.setTrustStore(material.trustStore());
    }
  }

  @Override
  protected void doStart() {
    scanner =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bamel-api-tls-reload");
              t.setDaemon(true);
              return t;
            });
    scanner.scheduleWithFixedDelay(
        this::check, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  protected void doStop() {
    if (scanner != null) {
      scanner.shutdownNow();
    }
  }

  /** Reloads the files when their contents changed since they were last tried. */
  void check() {
    String fingerprint = TlsMaterial.fingerprint(tls);
    if (fingerprint.equals(loadedFingerprint) || fingerprint.equals(triedFingerprint)) {
      return;
    }
    triedFingerprint = fingerprint;
    TlsMaterial material;
    try {
      material = TlsMaterial.load(tls, password);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "API TLS: the changed files are not used, the previous certificate stays: {}",
          e.getMessage());
      return;
    }
    try {
      factory.reload(f -> configure(f, material));
      loadedFingerprint = fingerprint;
      LOG.info(
          "API TLS: reloaded certificate {} from {} (valid until {})",
          material.certificate().getSubjectX500Principal().getName(),
          tls.certFile(),
          material.certificate().getNotAfter().toInstant());
    } catch (Exception e) {
      LOG.warn("API TLS: reloading {} failed, the previous certificate stays", tls.certFile(), e);
    }
  }
}
