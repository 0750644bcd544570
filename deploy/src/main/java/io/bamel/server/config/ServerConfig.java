package io.bamel.server.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.time.Duration;
import java.util.List;

/**
 * Everything {@code bamel server} can be told, as one tree. It is read from a YAML file, then
 * environment variables ({@code BAMEL_} + the path in upper snake case: {@code etcd.caFile} is
 * {@code BAMEL_ETCD_CA_FILE}), then command-line flags; later sources win. {@link #DEFAULTS} lists
 * the defaults, which the README's configuration table repeats. No secret is ever a value here:
 * passwords and tokens are named by the files that hold them.
 *
 * @param http the API's listener
 * @param components the parts to run ({@code api}, {@code node-controller}, {@code
 *     pool-controller})
 * @param instance this process's name in leader election and events (default: the host name and the
 *     process id, {@code host-1234})
 * @param etcd where the inventory lives
 * @param storage what bamel keeps in etcd, and for how long
 * @param auth API tokens
 * @param bmc BMC credentials
 * @param wakeOnLan Wake-on-LAN power-off commands
 * @param kubernetes the Kubernetes connection
 * @param nodeController node controller tuning
 * @param poolController pool controller tuning
 * @param netbox NetBox as a DCIM source (off unless {@code netbox.url} is set; docs/dcim.md)
 * @param sync what every DCIM sync path shares (docs/dcim.md, identity)
 * @param log logging
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record ServerConfig(
    Http http,
    List<String> components,
    String instance,
    Etcd etcd,
    Storage storage,
    Auth auth,
    Bmc bmc,
    WakeOnLan wakeOnLan,
    Kubernetes kubernetes,
    NodeControllerSettings nodeController,
    PoolControllerSettings poolController,
    NetBox netbox,
    Sync sync,
    Log log) {

  /**
   * The API listener: {@code host} (loopback by default; listen on other interfaces only with
   * {@code tls}), {@code port}, the largest request body, the most connections held open at once,
   * and TLS.
   */
  public record Http(String host, int port, long maxBodyBytes, int maxConnections, Tls tls) {

    /**
     * TLS on the API: PEM files of the server certificate (chain) and its key, both or neither
     * (empty: plain HTTP), and optionally the CA bundle whose client certificates the API demands
     * (empty: no client certificate asked for).
     */
    public record Tls(String certFile, String keyFile, String clientCaFile) {

      /** Whether TLS is configured. */
      public boolean enabled() {
        return !certFile.isEmpty();
      }
    }
  }

  /**
   * etcd. With no endpoints, {@code bamel server} starts its own etcd (the embedded default) with
   * its data in {@code dataDir}.
   */
  public record Etcd(
      List<String> endpoints,
      String dataDir,
      String caFile,
      String certFile,
      String keyFile,
      String user,
      String passwordFile,
      Duration timeout) {}

  /**
   * What bamel keeps in etcd: the leader compacts etcd's history every {@code compactionInterval}
   * (to the revision of one interval earlier, as kube-apiserver does every 5 minutes), each node
   * keeps its newest {@code eventsPerNode} events, and {@code quotaBackendBytes} is etcd's backend
   * quota as configured on etcd (0: etcd's default of 2 GiB, or the embedded etcd's 8 GiB), against
   * which bamel warns at 80 % and reports etcd's NOSPACE alarm. {@code defrag}: whether and when
   * the leader defragments etcd's members.
   */
  public record Storage(
      Duration compactionInterval, int eventsPerNode, long quotaBackendBytes, Defrag defrag) {

    /**
     * Defragmentation by the {@code etcd-maintenance} leader (on by default). Checked every {@code
     * checkInterval}; a member is due when its file is at least {@code minDbSizeBytes} and at least
     * {@code minFreeRatio} of it is free, or (when {@code growthRatio} is above 0) when its data in
     * use reached {@code growthRatio} times its size after its last defragmentation; one member at
     * a time, at most one every {@code minInterval}. A member answers nothing while it defragments,
     * so one whose file is above {@code maxDbSizeBytes} (0: no limit) is left to the operator, with
     * a WARN.
     */
    public record Defrag(
        boolean enabled,
        long minDbSizeBytes,
        long maxDbSizeBytes,
        double minFreeRatio,
        double growthRatio,
        Duration minInterval,
        Duration checkInterval) {}
  }

  /** API authentication: a file of token hashes and scopes; anonymous read when allowed. */
  public record Auth(String tokensFile, boolean anonymousRead) {}

  /**
   * BMC credentials: the directory holding one sub-directory of credential files per credential
   * name, and whether every credential must have an {@code allowed-hosts} file (true: a credential
   * without one is never sent anywhere; false: it is sent to any https address, with a warning at
   * start); and the site's IPMI settings.
   */
  public record Bmc(String credentialsDir, boolean requireAllowList, Ipmi ipmi) {

    /**
     * The site's IPMI defaults: {@code implementation}, how the IPMI driver reaches a BMC whose
     * node does not say ({@code native}, bamel's RMCP+ client, or {@code ipmitool}, one program run
     * per command); a node's {@code ipmi.implementation} overrides it.
     */
    public record Ipmi(String implementation) {}
  }

  /**
   * Wake-on-LAN: the YAML file of named power-off commands ({@code name: [argv0, arg1, ...]}) that
   * nodes refer to by name (empty: none).
   */
  public record WakeOnLan(String powerOffCommandsFile) {}

  /**
   * Kubernetes: {@code auto} (in-cluster when running in a pod, else a kubeconfig when one is
   * found, else none), {@code in-cluster}, {@code kubeconfig} (with {@code kubeconfig} or the
   * default locations), or {@code none} (the controllers run disconnected).
   */
  public record Kubernetes(String mode, String kubeconfig, String context, Duration timeout) {}

  /**
   * Node controller tuning: {@code workers} reconcile workers (each makes one BMC call at a time),
   * {@code shutdownTimeout} the wait for work in progress at shutdown, and the global lifecycle
   * step timeouts ({@code powerOnTimeout}, {@code joinTimeout}, {@code drainTimeout}, {@code
   * powerOffTimeout}) that apply where a pool sets none. With {@code sharded}, every replica runs
   * its node controller on its share of the fleet (a hash ring of the live replicas, each holding
   * {@code /baremetal/replicas/{instance}} under a lease) instead of one leader doing all of it.
   * {@code readings}: how often a powered-on node's power draw is read and when a reading is
   * written to etcd.
   */
  public record NodeControllerSettings(
      int workers,
      int bmcConcurrency,
      Duration syncInterval,
      Duration bmcCallTimeout,
      Duration shutdownTimeout,
      Duration powerOnTimeout,
      Duration joinTimeout,
      Duration drainTimeout,
      Duration powerOffTimeout,
      boolean sharded,
      Readings readings) {

    /**
     * Power readings: the draw of a powered-on node is read at the first sync after {@code
     * interval} (zero: at every sync), and written to etcd only when it moved by more than {@code
     * relativeTolerance} of the stored value (a fraction, 0.05 = 5 %) and more than {@code
     * absoluteWatts}, or when the stored one is older than {@code heartbeat}; the {@code
     * bamel_node_power_watts} gauge always has the latest.
     */
    public record Readings(
        Duration interval, double relativeTolerance, double absoluteWatts, Duration heartbeat) {}
  }

  /**
   * Pool controller tuning; {@code prometheusUrl} is where trigger queries go (none: off). A pool
   * status whose utilization alone moved is written to etcd only when some resource moved by more
   * than {@code statusUtilizationTolerance} (a ratio: 0.02 is 2 percentage points) or the status
   * written is {@code statusMaxAge} old; every other change at once.
   */
  public record PoolControllerSettings(
      Duration interval,
      String prometheusUrl,
      double statusUtilizationTolerance,
      Duration statusMaxAge) {}

  /**
   * NetBox as a DCIM source (docs/dcim.md): with a {@code url}, the leader of {@code netbox-sync}
   * pulls NetBox's devices every {@code interval} and the API takes its webhooks.
   *
   * @param url NetBox's root URL (empty: off)
   * @param tokenFile the file holding the API token (v1: 40 letters or digits; v2: {@code
   *     nbt_<key>.<token>})
   * @param caFile a PEM CA bundle for NetBox's certificate (empty: the system's)
   * @param filters which devices bamel takes
   * @param interval time between pulls
   * @param macCustomField the device custom field whose MAC overrides the interfaces' boot MAC
   * @param pageSize devices asked for per page (NetBox caps it at its MAX_PAGE_SIZE, 1000 by
   *     default)
   * @param scope what the pull and webhooks may write: {@code write}, or {@code bmc} to also set
   *     the power-control fields (the OOB IP as mgmtAddress, the bamel_* power custom fields)
   * @param prune whether a complete pull deletes the nodes (from NetBox, off) of devices NetBox no
   *     longer lists
   * @param timeout the deadline of one NetBox request
   * @param reportBack writing power and lifecycle state back to NetBox custom fields
   * @param webhookSecretFile the file holding the webhooks' secret (empty: webhooks refused)
   */
  public record NetBox(
      String url,
      String tokenFile,
      String caFile,
      Filters filters,
      Duration interval,
      String macCustomField,
      int pageSize,
      String scope,
      boolean prune,
      Duration timeout,
      ReportBack reportBack,
      String webhookSecretFile) {

    /** Whether NetBox is a source. */
    public boolean enabled() {
      return url != null && !url.isEmpty();
    }

    /** NetBox filters: slugs (status: values); several values of one filter are alternatives. */
    public record Filters(
        List<String> site,
        List<String> tag,
        List<String> role,
        List<String> status,
        List<String> tenant) {}

    /**
     * Report-back: custom fields {@code powerField} and {@code stateField} of each device, in bulk
     * PATCHes of {@code batchSize}, at most {@code requestsPerSecond}, every {@code interval}.
     */
    public record ReportBack(
        boolean enabled,
        int batchSize,
        int requestsPerSecond,
        Duration interval,
        String powerField,
        String stateField) {}
  }

  /**
   * What every DCIM sync path shares: {@code placeholderSerials}, serials added to the built-in
   * list of placeholders ({@code PlaceholderSerials.DEFAULTS}), which are stored but never match a
   * node or count as unique.
   */
  public record Sync(List<String> placeholderSerials) {}

  /** Logging: {@code text} or {@code json}, and the level of bamel's own loggers. */
  public record Log(String format, String level) {}

  /** The defaults. */
  public static final ServerConfig DEFAULTS =
      new ServerConfig(
          new Http("127.0.0.1", 8080, 8L * 1024 * 1024, 10_000, new Http.Tls("", "", "")),
          List.of("api", "node-controller", "pool-controller"),
          "",
          new Etcd(List.of(), "./var/etcd", "", "", "", "", "", Duration.ofSeconds(10)),
          new Storage(
              Duration.ofMinutes(5),
              20,
              0,
              new Storage.Defrag(
                  true,
                  100L << 20,
                  512L << 20,
                  0.45,
                  1.2,
                  Duration.ofMinutes(10),
                  Duration.ofMinutes(1))),
          new Auth("", false),
          new Bmc("/etc/bamel/bmc", false, new Bmc.Ipmi("native")),
          new WakeOnLan(""),
          new Kubernetes("auto", "", "", Duration.ofSeconds(5)),
          new NodeControllerSettings(
              64,
              64,
              Duration.ofSeconds(60),
              Duration.ofSeconds(150),
              Duration.ofSeconds(20),
              Duration.ofMinutes(5),
              Duration.ofMinutes(20),
              Duration.ofMinutes(10),
              Duration.ofMinutes(5),
              false,
              new NodeControllerSettings.Readings(
                  Duration.ofMinutes(10), 0.05, 10, Duration.ofHours(1))),
          new PoolControllerSettings(Duration.ofSeconds(15), "", 0.02, Duration.ofMinutes(5)),
          new NetBox(
              "",
              "",
              "",
              new NetBox.Filters(List.of(), List.of(), List.of(), List.of(), List.of()),
              Duration.ofMinutes(5),
              "bamel_mac_address",
              1000,
              "write",
              true,
              Duration.ofSeconds(30),
              new NetBox.ReportBack(
                  false, 100, 2, Duration.ofSeconds(30), "bamel_power", "bamel_state"),
              ""),
          new Sync(List.of()),
          new Log("text", "info"));

  /** Whether bamel should start its own etcd. */
  public boolean embeddedEtcd() {
    return etcd.endpoints() == null || etcd.endpoints().isEmpty();
  }
}
