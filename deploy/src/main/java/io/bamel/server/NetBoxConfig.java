package io.bamel.server;

import io.bamel.dcim.netbox.NetBoxClient;
import io.bamel.dcim.netbox.NetBoxFilters;
import io.bamel.dcim.netbox.NetBoxSettings;
import io.bamel.dcim.netbox.NetBoxToken;
import io.bamel.dcim.netbox.WebhookSecret;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ServerConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;

/**
 * Turns the validated {@code netbox} settings into the NetBox source's settings: reads the token
 * and webhook secret files (an unreadable or malformed file is a {@link ConfigException} naming the
 * setting and the file, never its content) and builds the client.
 */
final class NetBoxConfig {

  private NetBoxConfig() {}

  static NetBoxSettings settings(ServerConfig.NetBox n, Set<String> powerOffCommands) {
    NetBoxToken token;
    try {
      token = NetBoxToken.read(Path.of(n.tokenFile()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("netbox.tokenFile: " + e.getMessage());
    }
    WebhookSecret secret = null;
    if (!n.webhookSecretFile().isEmpty()) {
      try {
        secret = WebhookSecret.read(Path.of(n.webhookSecretFile()));
      } catch (IllegalArgumentException e) {
        throw new ConfigException("netbox.webhookSecretFile: " + e.getMessage());
      }
    }
    ServerConfig.NetBox.Filters f = n.filters();
    ServerConfig.NetBox.ReportBack rb = n.reportBack();
    return new NetBoxSettings(
        URI.create(n.url()),
        token,
        n.caFile().isEmpty() ? null : Path.of(n.caFile()),
        new NetBoxFilters(f.site(), f.tag(), f.role(), f.status(), f.tenant()),
        n.interval(),
        n.macCustomField(),
        n.pageSize(),
        NetBoxSettings.Scope.valueOf(n.scope().toUpperCase(java.util.Locale.ROOT)),
        n.prune(),
        n.timeout(),
        NetBoxClient.Retry.DEFAULTS,
        new NetBoxSettings.ReportBack(
            rb.enabled(),
            rb.batchSize(),
            rb.requestsPerSecond(),
            rb.interval(),
            rb.powerField(),
            rb.stateField()),
        secret,
        10_000,
        powerOffCommands);
  }

  static NetBoxClient client(NetBoxSettings s, Clock clock) {
    try {
      return new NetBoxClient(s.url(), s.token(), s.caFile(), s.timeout(), s.retry(), clock);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("netbox.caFile: " + e.getMessage());
    }
  }
}
