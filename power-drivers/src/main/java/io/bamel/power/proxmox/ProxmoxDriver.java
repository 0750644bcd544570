package io.bamel.power.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPacer;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.credentials.Destination;
import io.bamel.power.net.HostAddresses;
import io.bamel.power.net.NoDelaySocketFactory;
import io.bamel.power.net.OutboundOkHttp;
import io.bamel.power.net.PinnedDns;
import io.bamel.power.tls.TlsConfigurer;
import java.net.InetAddress;
import java.net.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The Proxmox VE driver (interface {@code proxmox}): starts and stops a VM.
 *
 * <ul>
 *   <li>The address is the API base ({@code https://host:8006}); options {@link #OPTION_NODE} and
 *       {@link #OPTION_VMID} name the VM.
 *   <li>Authenticates with an API token: the credential's {@code token} file holds either {@code
 *       user@realm!tokenid=secret} or just the secret, with {@code user@realm!tokenid} in {@code
 *       username}.
 *   <li>State from {@code status/current} ({@code running} on, {@code stopped} off).
 *   <li>Start, shutdown, stop and reset return a task UPID that is polled until it ends; a task
 *       whose exit status is not {@code OK} is a failure.
 *   <li>Graceful off: {@code shutdown} with {@code timeout} (the graceful window in seconds) and
 *       {@code forceStop=1}, so Proxmox stops the VM itself at the end of the window; if the task
 *       has not ended by then (or failed), {@code stop} with {@code overrule-shutdown=1}, which
 *       aborts the shutdown task holding the VM's lock. Force off: that {@code stop} at once.
 *   <li>TLS verified against the JVM's trust store, a CA bundle or a pinned fingerprint.
 *   <li>At most {@link ProxmoxConfig#perHostConcurrency()} requests at a time reach one Proxmox
 *       host ({@code host:port}, serving all its VMs), {@link ProxmoxConfig#perHostInterval()}
 *       apart ({@link BmcPacer}).
 *   <li>Before each operation the API host is resolved and the token's credential checked against
 *       its allow-list ({@link CredentialSource#credentials(String, Destination)}; a refusal is a
 *       terminal {@link PowerException.Reason#NOT_ALLOWED} before any request leaves); the
 *       operation's requests go only to those addresses ({@link PinnedDns}, no proxy).
 * </ul>
 */
public final class ProxmoxDriver implements PowerDriver {

  /** The interface name. */
  public static final String INTERFACE = "proxmox";

  /** Endpoint option: the Proxmox node the VM runs on. */
  public static final String OPTION_NODE = "pveNode";

  /** Endpoint option: the VM id. */
  public static final String OPTION_VMID = "vmid";

  /** {@code shutdown}: seconds to wait for the guest. */
  static final String SHUTDOWN_TIMEOUT = "timeout";

  /** {@code shutdown}: stop the VM when the guest has not shut down within the timeout. */
  static final String SHUTDOWN_FORCE_STOP = "forceStop";

  /** {@code stop}: abort a running {@code shutdown} task first (recent Proxmox VE releases). */
  static final String STOP_OVERRULE_SHUTDOWN = "overrule-shutdown";

  private static final Pattern MAC = Pattern.compile("([0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})");

  private final CredentialSource credentials;
  private final ProxmoxConfig config;
  private final Sleeper sleeper;
  private final BmcPacer pacer;
  private final OkHttpClient baseClient;
  private final Map<TlsSettings, OkHttpClient> clients = new ConcurrentHashMap<>();
  private final Map<PinnedClientKey, OkHttpClient> pinnedClients = new ConcurrentHashMap<>();

  /** A client per TLS setting and pinned host answer (equal pins share pooled connections). */
  private record PinnedClientKey(TlsSettings tls, PinnedDns dns) {}

  /** A driver with default settings. */
  public ProxmoxDriver(CredentialSource credentials) {
    this(credentials, ProxmoxConfig.defaults(), Sleeper.SYSTEM);
  }

  /** A driver with explicit settings and sleeper. */
  public ProxmoxDriver(CredentialSource credentials, ProxmoxConfig config, Sleeper sleeper) {
    this.credentials = credentials;
    this.config = config;
    this.sleeper = sleeper;
    this.pacer =
        new BmcPacer(
            config.perHostConcurrency(), config.perHostInterval(), Clock.systemUTC(), sleeper);
    // TLS only once a connection is made (TlsConfigurer.apply), with the trust it names.
    this.baseClient =
        OutboundOkHttp.apply(TlsConfigurer.cleartext(new OkHttpClient.Builder()))
            .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .readTimeout(0, TimeUnit.MILLISECONDS)
            .retryOnConnectionFailure(false)
            .socketFactory(new NoDelaySocketFactory())
            .build();
  }

  /** The client every host's client is built from (tests check its sockets). */
  OkHttpClient baseClient() {
    return baseClient;
  }

  @Override
  public String powerInterface() {
    return INTERFACE;
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    ProxmoxTarget target = ProxmoxTarget.of(endpoint);
    return state(api(endpoint), target, deadline);
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    ProxmoxTarget target = ProxmoxTarget.of(endpoint);
    ProxmoxApi api = api(endpoint);
    if (state(api, target, deadline) == BmcPowerState.ON) {
      return;
    }
    runTask(api, target, "start", deadline);
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    ProxmoxTarget target = ProxmoxTarget.of(endpoint);
    ProxmoxApi api = api(endpoint);
    if (state(api, target, deadline) == BmcPowerState.OFF) {
      return;
    }
    if (mode == PowerOffMode.GRACEFUL) {
      Deadline window = deadline.atMost(config.gracefulTimeout());
      try {
        String upid = startTask(api, target, "shutdown", shutdownForm(window), deadline);
        awaitTask(api, target, upid, "shutdown", window);
        if (state(api, target, deadline) == BmcPowerState.OFF) {
          return;
        }
      } catch (TransientPowerException e) {
        // the guest did not shut down in time (or the task failed): stop it
      }
    }
    awaitTask(api, target, startStop(api, target, deadline), "stop", deadline);
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    ProxmoxTarget target = ProxmoxTarget.of(endpoint);
    ProxmoxApi api = api(endpoint);
    runTask(
        api,
        target,
        state(api, target, deadline) == BmcPowerState.OFF ? "start" : "reset",
        deadline);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    throw TerminalPowerException.unsupported(
        INTERFACE, "boot device selection (set the VM's boot order in Proxmox)");
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    ProxmoxTarget target = ProxmoxTarget.of(endpoint);
    JsonNode vmConfig = api(endpoint).get(target.vm("config"), deadline);
    List<String> macs = new ArrayList<>();
    for (Iterator<String> names = vmConfig.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (name.matches("net\\d+")) {
        Matcher m = MAC.matcher(vmConfig.path(name).asText(""));
        if (m.find()) {
          macs.add(m.group(1).toLowerCase(Locale.ROOT));
        }
      }
    }
    int sockets = vmConfig.path("sockets").asInt(1);
    int cores = vmConfig.path("cores").asInt(1);
    String memory = vmConfig.path("memory").asText("");
    return new HardwareInfo(
        "Proxmox VE",
        "QEMU VM",
        null,
        sockets,
        vmConfig.path("cpu").asText("default") + " (" + cores + " cores per socket)",
        memory.matches("\\d+") ? Long.valueOf(memory) : null,
        macs);
  }

  @Override
  public void close() {
    baseClient.connectionPool().evictAll();
    baseClient.dispatcher().executorService().shutdown();
  }

  private BmcPowerState state(ProxmoxApi api, ProxmoxTarget target, Deadline deadline)
      throws PowerException {
    String status = api.get(target.vm("status", "current"), deadline).path("status").asText("");
    return switch (status) {
      case "running" -> BmcPowerState.ON;
      case "stopped" -> BmcPowerState.OFF;
      default -> BmcPowerState.UNKNOWN;
    };
  }

  private void runTask(ProxmoxApi api, ProxmoxTarget target, String action, Deadline deadline)
      throws PowerException {
    awaitTask(api, target, startTask(api, target, action, Map.of(), deadline), action, deadline);
  }

  /**
   * The form of {@code shutdown}: Proxmox itself stops the VM when the guest has not shut down
   * within {@code timeout} seconds (the graceful window, rounded up), so the VM goes off even if
   * bamel stops waiting.
   */
  static Map<String, String> shutdownForm(Deadline window) {
    long millis = window.remaining().toMillis();
    long seconds = Math.max(1, (millis + 999) / 1000);
    return Map.of(SHUTDOWN_TIMEOUT, String.valueOf(seconds), SHUTDOWN_FORCE_STOP, "1");
  }

  /**
   * Starts {@code stop} with {@code overrule-shutdown=1}, which aborts a {@code shutdown} task
   * still holding the VM's lock instead of waiting for it. A Proxmox VE too old to know the
   * parameter rejects it (HTTP 400 naming it): then the stop is sent without it.
   */
  private String startStop(ProxmoxApi api, ProxmoxTarget target, Deadline deadline)
      throws PowerException {
    HttpUrl url = target.vm("status", "stop");
    ProxmoxAnswer answer = api.postForAnswer(url, Map.of(STOP_OVERRULE_SHUTDOWN, "1"), deadline);
    if (answer.rejectedParameters().contains(STOP_OVERRULE_SHUTDOWN)) {
      answer = api.postForAnswer(url, Map.of(), deadline);
    }
    return taskId(ProxmoxApi.data("POST " + url.encodedPath(), answer), "stop", target);
  }

  private String startTask(
      ProxmoxApi api,
      ProxmoxTarget target,
      String action,
      Map<String, String> form,
      Deadline deadline)
      throws PowerException {
    return taskId(api.post(target.vm("status", action), form, deadline), action, target);
  }

  private static String taskId(JsonNode upid, String action, ProxmoxTarget target)
      throws TerminalPowerException {
    if (!upid.isTextual() || !upid.asText().startsWith("UPID:")) {
      throw new TerminalPowerException(
          PowerException.Reason.PROTOCOL, action + " of " + target.describe() + ": no task id");
    }
    return upid.asText();
  }

  /** Polls the task until it stops; fails unless its exit status is {@code OK}. */
  private void awaitTask(
      ProxmoxApi api, ProxmoxTarget target, String upid, String action, Deadline deadline)
      throws PowerException {
    while (true) {
      JsonNode task = api.get(target.taskStatus(upid), deadline);
      if ("stopped".equals(task.path("status").asText())) {
        String exit = task.path("exitstatus").asText("");
        if (!exit.equals("OK")) {
          throw new TransientPowerException(
              PowerException.Reason.BMC_ERROR,
              action + " of " + target.describe() + " failed: " + exit);
        }
        return;
      }
      Duration left = deadline.remaining();
      if (left.compareTo(config.taskPollInterval()) <= 0) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT,
            action + " of " + target.describe() + " still running at the deadline");
      }
      try {
        sleeper.sleep(config.taskPollInterval());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
      }
    }
  }

  private ProxmoxApi api(BmcEndpoint endpoint) throws PowerException {
    HttpUrl base = ProxmoxTarget.of(endpoint).base();
    String host = HostAddresses.normalize(base.host());
    List<InetAddress> resolved = HostAddresses.resolve(host);
    Destination destination =
        new Destination(base.scheme(), host, resolved, endpoint.tls().insecure());
    String token = apiToken(endpoint, destination);
    PinnedClientKey key = new PinnedClientKey(endpoint.tls(), new PinnedDns(host, resolved));
    OkHttpClient client = pinnedClients.get(key);
    if (client == null) {
      client = tlsClient(endpoint.tls()).newBuilder().dns(key.dns()).proxy(Proxy.NO_PROXY).build();
      OkHttpClient raced = pinnedClients.putIfAbsent(key, client);
      client = raced != null ? raced : client;
    }
    return new ProxmoxApi(client, token, pacer, host + ":" + base.port());
  }

  private OkHttpClient tlsClient(TlsSettings tls) throws PowerException {
    OkHttpClient client = clients.get(tls);
    if (client == null) {
      clients.putIfAbsent(tls, TlsConfigurer.apply(baseClient.newBuilder(), tls).build());
      client = clients.get(tls);
    }
    return client;
  }

  /** {@code user@realm!tokenid=secret}. */
  private String apiToken(BmcEndpoint endpoint, Destination destination) throws PowerException {
    if (endpoint.credentialsName() == null) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, "a Proxmox node needs API token credentials");
    }
    Credentials secret = credentials.credentials(endpoint.credentialsName(), destination);
    String token =
        secret
            .apiToken()
            .orElseThrow(
                () ->
                    new TerminalPowerException(
                        PowerException.Reason.BAD_CREDENTIALS,
                        "credential '" + endpoint.credentialsName() + "' has no token file"));
    if (token.contains("!") && token.contains("=")) {
      return token;
    }
    String user =
        secret
            .user()
            .filter(u -> u.contains("!"))
            .orElseThrow(
                () ->
                    new TerminalPowerException(
                        PowerException.Reason.BAD_CREDENTIALS,
                        "credential '"
                            + endpoint.credentialsName()
                            + "': the token file holds only the secret, so the username file"
                            + " must hold user@realm!tokenid"));
    return user + "=" + token;
  }
}
