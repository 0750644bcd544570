package io.bamel.server.config;

import io.bamel.server.Component;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Checks a loaded {@link ServerConfig} and says what is wrong in operator's terms. */
final class ConfigValidation {

  private static final Set<String> K8S_MODES = Set.of("auto", "in-cluster", "kubeconfig", "none");

  private ConfigValidation() {}

  static ServerConfig check(ServerConfig c) {
    require(c.http().port() >= 0 && c.http().port() <= 65535, "http.port must be 0 to 65535");
    require(c.http().maxBodyBytes() >= 1024, "http.maxBodyBytes must be at least 1024");
    require(c.http().maxConnections() >= 1, "http.maxConnections must be at least 1");
    ServerConfig.Http.Tls tls = c.http().tls();
    require(
        tls.certFile().isEmpty() == tls.keyFile().isEmpty(),
        "http.tls.certFile and http.tls.keyFile go together");
    require(
        tls.clientCaFile().isEmpty() || !tls.certFile().isEmpty(),
        "http.tls.clientCaFile needs http.tls.certFile and http.tls.keyFile (client certificates"
            + " are asked for over TLS only)");
    require(
        c.components() != null && !c.components().isEmpty(),
        "components must name at least one component");
    for (String component : c.components()) {
      try {
        Component.parse(component);
      } catch (IllegalArgumentException e) {
        throw new ConfigException("components: " + e.getMessage());
      }
    }
    List<String> endpoints = c.etcd().endpoints();
    for (String e : endpoints) {
      require(
          e.startsWith("http://") || e.startsWith("https://"),
          "etcd.endpoints: '" + e + "' must be an http(s) URL");
    }
    boolean https = endpoints.stream().anyMatch(e -> e.startsWith("https://"));
    require(
        !https || endpoints.stream().allMatch(e -> e.startsWith("https://")),
        "etcd.endpoints mixes http:// and https:// URLs; use one scheme");
    require(
        !https || !c.etcd().caFile().isEmpty(),
        "etcd.endpoints use https:// but etcd.caFile is empty: set etcd.caFile to the CA bundle"
            + " that signed etcd's certificate");
    require(
        https || (c.etcd().caFile().isEmpty() && c.etcd().certFile().isEmpty()),
        "etcd.caFile and etcd.certFile need https:// etcd.endpoints");
    require(
        c.embeddedEtcd() || !c.auth().tokensFile().isEmpty() || c.auth().anonymousRead(),
        "auth.tokensFile is required with etcd.endpoints (only the embedded etcd generates an"
            + " admin token); set auth.anonymousRead: true to run without tokens, read-only");
    require(
        c.etcd().certFile().isEmpty() == c.etcd().keyFile().isEmpty(),
        "etcd.certFile and etcd.keyFile go together");
    require(
        c.etcd().user().isEmpty() || !c.etcd().passwordFile().isEmpty(),
        "etcd.user needs etcd.passwordFile (the password is never a setting)");
    require(c.etcd().timeout().isPositive(), "etcd.timeout must be positive");
    require(
        c.storage().compactionInterval() != null
            && c.storage().compactionInterval().compareTo(Duration.ofSeconds(1)) >= 0,
        "storage.compactionInterval must be at least 1s");
    require(
        c.storage().eventsPerNode() >= 1 && c.storage().eventsPerNode() <= 1000,
        "storage.eventsPerNode must be 1 to 1000");
    require(c.storage().quotaBackendBytes() >= 0, "storage.quotaBackendBytes must not be negative");
    require(
        K8S_MODES.contains(c.kubernetes().mode()), "kubernetes.mode must be one of " + K8S_MODES);
    require(c.kubernetes().timeout().isPositive(), "kubernetes.timeout must be positive");
    require(c.nodeController().workers() >= 1, "nodeController.workers must be at least 1");
    require(
        c.nodeController().bmcConcurrency() >= 1,
        "nodeController.bmcConcurrency must be at least 1");
    require(
        c.nodeController().syncInterval().isPositive(),
        "nodeController.syncInterval must be positive");
    require(
        c.nodeController().shutdownTimeout() != null
            && !c.nodeController().shutdownTimeout().isNegative(),
        "nodeController.shutdownTimeout must be zero or positive");
    positive(c.nodeController().powerOnTimeout(), "nodeController.powerOnTimeout");
    positive(c.nodeController().joinTimeout(), "nodeController.joinTimeout");
    positive(c.nodeController().drainTimeout(), "nodeController.drainTimeout");
    positive(c.nodeController().powerOffTimeout(), "nodeController.powerOffTimeout");
    require(c.poolController().interval().isPositive(), "poolController.interval must be positive");
    require(Set.of("text", "json").contains(c.log().format()), "log.format must be text or json");
    require(
        Set.of("trace", "debug", "info", "warn", "error").contains(c.log().level()),
        "log.level must be trace, debug, info, warn or error");
    return c;
  }

  private static void positive(Duration d, String setting) {
    require(d != null && d.isPositive(), setting + " must be positive");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigException(message);
    }
  }
}
