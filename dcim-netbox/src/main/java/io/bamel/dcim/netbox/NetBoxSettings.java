package io.bamel.dcim.netbox;

import io.bamel.inventory.sync.SyncPlanner;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A NetBox source, as the server's {@code netbox} settings describe it (secrets already read from
 * their files).
 *
 * @param url NetBox's root URL ({@code https://192.0.2.30}, or with a base path)
 * @param token the API token
 * @param caFile a PEM CA bundle for NetBox's certificate (null: the system's trust store)
 * @param filters which devices bamel takes
 * @param interval time between pulls
 * @param macCustomField the device custom field holding a boot MAC that overrides the interfaces'
 * @param pageSize devices per page asked for (NetBox caps it at its {@code MAX_PAGE_SIZE})
 * @param scope the scope the pull and webhooks write with: {@code write} (power-control fields,
 *     such as the OOB IP, are then not changed) or {@code bmc}
 * @param prune whether a complete pull deletes the nodes of devices NetBox no longer lists (only
 *     nodes that came from NetBox, only when off), and a webhook's {@code deleted} its node
 * @param timeout the deadline of one NetBox request
 * @param retry when NetBox requests are tried again
 * @param reportBack writing power and lifecycle state back to NetBox
 * @param webhookSecret the webhooks' secret (null: webhooks are refused)
 * @param webhookQueue how many webhook events may wait to be applied
 * @param powerOffCommands the power-off command names the server defines
 */
public record NetBoxSettings(
    URI url,
    NetBoxToken token,
    Path caFile,
    NetBoxFilters filters,
    Duration interval,
    String macCustomField,
    int pageSize,
    Scope scope,
    boolean prune,
    Duration timeout,
    NetBoxClient.Retry retry,
    ReportBack reportBack,
    WebhookSecret webhookSecret,
    int webhookQueue,
    Set<String> powerOffCommands) {

  /**
   * The API scope the NetBox source writes with ({@code netbox.scope}): what a token of that scope
   * may change through {@code POST /api/v1/sync}, the pull and webhooks may change.
   */
  public enum Scope {
    /** Everything but the power-control fields (a NetBox OOB IP then does not set mgmtAddress). */
    WRITE,
    /** Also the power-control fields: where bamel sends BMC credentials and what it drives. */
    BMC;

    /** The scope's name in the settings and messages: {@code write} or {@code bmc}. */
    public String scopeName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The principal the NetBox source writes as, in node events. */
  public static final String PRINCIPAL = "netbox";

  /**
   * Report-back: each NetBox device's custom fields {@code powerField} and {@code stateField} get
   * the node's observed power state and lifecycle state, in bulk {@code PATCH}es of {@code
   * batchSize} devices, at most {@code requestsPerSecond}, every {@code interval}, only for values
   * that changed.
   */
  public record ReportBack(
      boolean enabled,
      int batchSize,
      double requestsPerSecond,
      Duration interval,
      String powerField,
      String stateField) {

    /** Off; 100 devices a request, 2 requests a second, every 30 s, bamel_power, bamel_state. */
    public static final ReportBack OFF =
        new ReportBack(false, 100, 2, Duration.ofSeconds(30), "bamel_power", "bamel_state");
  }

  /** Checks the required values and fills defaults. */
  public NetBoxSettings {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(token, "token");
    filters = filters == null ? NetBoxFilters.NONE : filters;
    macCustomField =
        macCustomField == null || macCustomField.isBlank()
            ? NetBoxDevices.MAC_FIELD
            : macCustomField;
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be at least 1");
    }
    if (scope == null) {
      throw new IllegalArgumentException("scope must be write or bmc");
    }
    retry = retry == null ? NetBoxClient.Retry.DEFAULTS : retry;
    reportBack = reportBack == null ? ReportBack.OFF : reportBack;
    powerOffCommands = powerOffCommands == null ? Set.of() : Set.copyOf(powerOffCommands);
  }

  /**
   * The rules the pull and webhooks plan under: as {@value #PRINCIPAL}, changing power-control
   * fields only with scope {@code bmc}, owning the reserved labels.
   */
  public SyncPlanner.Rules syncRules() {
    return new SyncPlanner.Rules(PRINCIPAL, scope == Scope.BMC, powerOffCommands, true);
  }
}
