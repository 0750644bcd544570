package io.bamel.server.config;

import io.bamel.server.Component;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Checks a loaded {@link ServerConfig} and says what is wrong in operator's terms. */
final class ConfigValidation {

  private static final Set<String> IPMI_IMPLEMENTATIONS = Set.of("native", "ipmitool");

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
        c.bmc().ipmi() != null && IPMI_IMPLEMENTATIONS.contains(c.bmc().ipmi().implementation()),
        "bmc.ipmi.implementation must be native or ipmitool"
            + (c.bmc().ipmi() == null ? "" : ", not '" + c.bmc().ipmi().implementation() + "'"));
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
    defrag(c.storage().defrag());
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
    readings(c.nodeController().readings());
    require(c.poolController().interval().isPositive(), "poolController.interval must be positive");
    require(
        c.poolController().statusUtilizationTolerance() >= 0
            && c.poolController().statusUtilizationTolerance() <= 1,
        "poolController.statusUtilizationTolerance must be 0 to 1 (0.02 is 2 percentage points)");
    require(
        c.poolController().statusMaxAge() != null
            && !c.poolController().statusMaxAge().isNegative(),
        "poolController.statusMaxAge must be zero or positive");
    netbox(c.netbox());
    require(Set.of("text", "json").contains(c.log().format()), "log.format must be text or json");
    require(
        Set.of("trace", "debug", "info", "warn", "error").contains(c.log().level()),
        "log.level must be trace, debug, info, warn or error");
    return c;
  }

  private static void defrag(ServerConfig.Storage.Defrag d) {
    require(d != null, "storage.defrag must be a mapping");
    require(d.minDbSizeBytes() >= 0, "storage.defrag.minDbSizeBytes must not be negative");
    require(
        d.maxDbSizeBytes() >= 0,
        "storage.defrag.maxDbSizeBytes must not be negative (0: no limit)");
    require(
        d.minFreeRatio() >= 0 && d.minFreeRatio() <= 1,
        "storage.defrag.minFreeRatio must be 0 to 1 (0.45 is 45 % of the file free)");
    require(
        d.growthRatio() == 0 || (d.growthRatio() > 1 && Double.isFinite(d.growthRatio())),
        "storage.defrag.growthRatio must be 0 (off) or above 1 (1.2: in use grew by 20 %)");
    require(
        d.minInterval() != null && !d.minInterval().isNegative(),
        "storage.defrag.minInterval must be zero or positive");
    require(
        d.checkInterval() != null && d.checkInterval().compareTo(Duration.ofSeconds(1)) >= 0,
        "storage.defrag.checkInterval must be at least 1s");
  }

  private static void readings(ServerConfig.NodeControllerSettings.Readings r) {
    require(
        r != null && r.interval() != null && !r.interval().isNegative(),
        "nodeController.readings.interval must be zero or positive");
    require(
        r.relativeTolerance() >= 0 && r.relativeTolerance() <= 1,
        "nodeController.readings.relativeTolerance must be 0 to 1 (0.05 is 5 %)");
    require(
        r.absoluteWatts() >= 0 && Double.isFinite(r.absoluteWatts()),
        "nodeController.readings.absoluteWatts must not be negative");
    require(
        r.heartbeat() != null && !r.heartbeat().isNegative(),
        "nodeController.readings.heartbeat must be zero or positive");
  }

  private static final java.util.regex.Pattern FIELD =
      java.util.regex.Pattern.compile("[a-z0-9_]{1,50}");

  private static void netbox(ServerConfig.NetBox n) {
    if (!n.enabled()) {
      require(
          n.tokenFile().isEmpty() && n.webhookSecretFile().isEmpty() && !n.reportBack().enabled(),
          "netbox.tokenFile, netbox.webhookSecretFile and netbox.reportBack need netbox.url");
      return;
    }
    java.net.URI url;
    try {
      url = new java.net.URI(n.url());
    } catch (java.net.URISyntaxException e) {
      throw new ConfigException("netbox.url: '" + n.url() + "' is not a URL");
    }
    require(
        ("https".equals(url.getScheme()) || "http".equals(url.getScheme()))
            && url.getHost() != null
            && url.getRawUserInfo() == null
            && url.getRawQuery() == null
            && url.getRawFragment() == null,
        "netbox.url must be NetBox's root URL, http(s)://host[:port][/path], without credentials"
            + " or query (the token goes in netbox.tokenFile)");
    require(
        !url.getPath().contains("/api"),
        "netbox.url is NetBox's root URL, not its API: drop /api/... from it");
    require(
        !n.tokenFile().isEmpty(),
        "netbox.url needs netbox.tokenFile, the file holding NetBox's API token");
    require(
        n.caFile().isEmpty() || "https".equals(url.getScheme()),
        "netbox.caFile needs an https:// netbox.url");
    require(
        n.interval() != null && n.interval().compareTo(Duration.ofSeconds(10)) >= 0,
        "netbox.interval must be at least 10s");
    require(n.timeout() != null && n.timeout().isPositive(), "netbox.timeout must be positive");
    require(
        n.pageSize() >= 1 && n.pageSize() <= 1000,
        "netbox.pageSize must be 1 to 1000 (NetBox's MAX_PAGE_SIZE is 1000 by default)");
    require(
        Set.of("write", "bmc").contains(n.scope()),
        "netbox.scope must be write or bmc (bmc also sets mgmtAddress from the OOB IP and the"
            + " power custom fields)");
    require(
        FIELD.matcher(n.macCustomField()).matches(),
        "netbox.macCustomField must be a NetBox custom field name ([a-z0-9_], 50 at most)");
    ServerConfig.NetBox.ReportBack rb = n.reportBack();
    require(
        rb.batchSize() >= 1 && rb.batchSize() <= 1000,
        "netbox.reportBack.batchSize must be 1 to 1000");
    require(
        rb.requestsPerSecond() >= 1 && rb.requestsPerSecond() <= 100,
        "netbox.reportBack.requestsPerSecond must be 1 to 100");
    require(
        rb.interval() != null && rb.interval().compareTo(Duration.ofSeconds(5)) >= 0,
        "netbox.reportBack.interval must be at least 5s");
    require(
        FIELD.matcher(rb.powerField()).matches() && FIELD.matcher(rb.stateField()).matches(),
        "netbox.reportBack.powerField and stateField must be NetBox custom field names");
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
