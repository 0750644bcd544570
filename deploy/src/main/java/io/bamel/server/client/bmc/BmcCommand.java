package io.bamel.server.client.bmc;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootDevice;
import io.bamel.power.BootMode;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.Drivers;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.wol.PowerOffCommands;
import io.bamel.power.wol.WolDriver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bamel bmc}: checks a BMC before it goes into the inventory. Exit code 0 on success, 1 with
 * a one-line reason on standard error when the BMC call fails, 2 on a usage error.
 *
 * <pre>
 * bamel bmc status|on|off|cycle|pxe|inspect|power --interface redfish|ipmi|wol|proxmox
 *     --address ADDR [--credentials DIR] [--ca-file F | --pin-sha256 HEX | --insecure]
 *     [--output json]
 * </pre>
 *
 * <p>{@code on}, {@code off}, {@code cycle} and {@code pxe} print what was sent to the BMC ({@code
 * sent}: the Redfish {@code ResetType} values, the IPMI verbs), whether a graceful off ended
 * forced, and the driver's notes (a fallback it took).
 *
 * <p>A credential directory's {@code allowed-hosts} file applies as it does in the server ({@link
 * io.bamel.power.credentials.AllowedHosts}): the credential is sent only to an allowed address, and
 * plain {@code http://} or {@code --insecure} need that file's explicit allowance. Wake-on-LAN off
 * runs a named command from {@code --off-commands-file} ({@link PowerOffCommands}), never a shell
 * line.
 *
 * <p>Each power interface's own flags ({@code --cipher-suite}, {@code --probe}, {@code --vmid},
 * ...) are the ones it declares ({@code PowerInterfaceType.cliFlags()}), added by {@link
 * InterfaceFlags}; each sets one endpoint option of the driver, also on top of a {@code --node}'s.
 *
 * <p>Runnable on its own ({@link #main}); {@code bin/bamel} registers it as a subcommand.
 */
@Command(
    name = "bmc",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Checks a BMC before it goes into the inventory.",
    modelTransformer = InterfaceFlags.class,
    footer = {
      "",
      "ADDR: redfish  http(s)://host[:port] (service root found) or a System URI",
      "      ipmi     host[:port] (port 623)",
      "      wol      the MAC, with --broadcast host[:port] (and --probe host:port)",
      "      proxmox  https://host:8006, with --pve-node and --vmid",
      "DIR:  the files username and password (token for Proxmox), laid out",
      "      as a mounted Kubernetes Secret, and optionally allowed-hosts (where",
      "      the credential may go; http:// and --insecure need its allowance)."
    })
public final class BmcCommand implements Callable<Integer> {

  /** Exit code of a failed BMC call. */
  public static final int FAILED = 1;

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "ACTION",
      description = "status, on, off, cycle, pxe, inspect or power")
  String action;

  @Option(names = "--interface", description = "redfish, ipmi, wol or proxmox")
  String powerInterface;

  @Option(names = "--address", description = "the BMC's address")
  String address;

  @Option(names = "--credentials", paramLabel = "DIR", description = "the credential directory")
  Path credentials;

  @Option(names = "--ca-file", paramLabel = "FILE", description = "PEM CA bundle for the BMC's TLS")
  Path caFile;

  @Option(names = "--insecure", description = "skip TLS verification (explicit opt-in)")
  boolean insecure;

  @Option(names = "--pin-sha256", paramLabel = "HEX", description = "accept only this certificate")
  String pinSha256;

  @Option(names = "--output", defaultValue = "text", description = "text or json (one JSON object)")
  String output;

  @Option(names = "--force", description = "off: cut the power instead of a graceful shutdown")
  boolean force;

  @Option(names = "--persistent", description = "pxe: for every boot, not just the next")
  boolean persistent;

  @Option(names = "--disk", description = "pxe: boot from disk instead of the network")
  boolean disk;

  @Option(
      names = "--boot-mode",
      paramLabel = "MODE",
      description = "pxe: uefi or legacy (default: keep the system's)")
  String bootMode;

  @Option(
      names = "--timeout",
      defaultValue = "120",
      paramLabel = "SECONDS",
      description = "give up after this long (default ${DEFAULT-VALUE})")
  long timeoutSeconds;

  @Option(
      names = "--poll-ms",
      defaultValue = "1000",
      hidden = true,
      description = "how often on/off re-read the state")
  long pollMillis;

  @Option(
      names = "--off-commands-file",
      paramLabel = "FILE",
      description = "wol: YAML file of named power-off commands (name: [/abs/program, args...])")
  Path offCommandsFile;

  @Option(
      names = "--node",
      paramLabel = "ID",
      description = {
        "the node's id: without --address and --interface, its BMC (address, interface,",
        "TLS, options, credential name) is read from the inventory and --credentials is",
        "the directory holding one directory per credential name; wol: {node}"
      })
  String nodeId;

  @Option(
      names = "--addresses",
      split = ",",
      paramLabel = "ADDR",
      description = "status of many BMCs of one interface with one credential, read concurrently")
  List<String> addresses;

  @Option(
      names = "--addresses-file",
      paramLabel = "FILE",
      description = "as --addresses, one address a line (# comments)")
  Path addressesFile;

  @Option(
      names = "--concurrency",
      defaultValue = "256",
      description = "with --addresses: BMCs read at once (default 256)")
  int concurrency;

  private final NodeLookup lookup;

  /** A command without an inventory: {@code --node} only names the node for Wake-on-LAN. */
  public BmcCommand() {
    this(null);
  }

  /** A command that resolves {@code --node} through {@code lookup} (null: none). */
  public BmcCommand(NodeLookup lookup) {
    this.lookup = lookup;
  }

  /**
   * Finds a node's BMC in the inventory, for {@code --node} without {@code --address}: its power
   * interface, its endpoint (address, credential name, TLS, driver options, as the node controller
   * builds it) and the local directory of credential directories to read its secret from.
   */
  @FunctionalInterface
  public interface NodeLookup {
    /**
     * The node's BMC.
     *
     * @throws NodeLookupException with a one-line reason when the node cannot be read
     */
    NodeBmc lookup(String nodeId);
  }

  /**
   * A node's BMC as the inventory describes it.
   *
   * @param powerInterface the driver's name
   * @param endpoint address, credential name, TLS settings and driver options
   * @param credentialsRoot the local directory holding one directory per credential name, or null
   */
  public record NodeBmc(String powerInterface, BmcEndpoint endpoint, Path credentialsRoot) {}

  /** A node that cannot be resolved; the message is printed as the command's one-line reason. */
  public static final class NodeLookupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure with its reason. */
    public NodeLookupException(String message) {
      super(message, null, false, false);
    }
  }

  /** Runs {@code bmc} on its own. */
  public static void main(String[] args) {
    quietLogging();
    CommandLine command = new CommandLine(new BmcCommand());
    command.setParameterExceptionHandler(
        (e, ignored) -> {
          e.getCommandLine().getErr().println("bamel bmc: " + e.getMessage());
          e.getCommandLine().getErr().println("Try 'bamel bmc --help'.");
          return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
        });
    System.exit(command.execute(args));
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean json = output.trim().equalsIgnoreCase("json");
    BmcAction what;
    try {
      what = BmcAction.parse(action);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "unknown action: " + action);
    }
    if (addresses != null || addressesFile != null) {
      return fleet(what, out, err, json);
    }
    NodeBmc node;
    try {
      node = resolveNode();
    } catch (NodeLookupException e) {
      err.println("bamel bmc " + action + ": " + oneLine(e.getMessage()));
      err.flush();
      return FAILED;
    }
    CredentialSource source = credentialSource(node);
    PowerOffCommands commands = powerOffCommands();
    try (PowerDriverRegistry registry =
        Drivers.standard(source, commands, new PrometheusRegistry())) {
      PowerDriver driver = registry.driver(node == null ? powerInterface : node.powerInterface());
      BmcOutcome outcome = run(what, driver, node == null ? endpoint() : nodeEndpoint(node));
      out.println(json ? outcome.json() : outcome.text());
      out.flush();
      return 0;
    } catch (PowerException e) {
      String line = oneLine(e.getMessage());
      if (json) {
        out.println(
            new BmcOutcome()
                .put("error", line)
                .put("reason", e.reason().name().toLowerCase(Locale.ROOT))
                .put("transient", e.isTransient())
                .json());
        out.flush();
      }
      err.println("bamel bmc " + action + ": " + line);
      err.flush();
      return FAILED;
    }
  }

  private BmcOutcome run(BmcAction what, PowerDriver driver, BmcEndpoint endpoint)
      throws PowerException {
    Deadline deadline = Deadline.in(Duration.ofSeconds(timeoutSeconds));
    BmcOutcome outcome = new BmcOutcome().put("interface", driver.powerInterface());
    switch (what) {
      case STATUS -> {
        BmcPowerState state = driver.bmcPowerState(endpoint, deadline);
        outcome.put("powerState", state.basic().wireName()).put("detail", state.wireName());
      }
      case ON -> {
        PowerResult result = driver.execute(PowerCommand.on(), endpoint, deadline);
        outcome.put("action", "on");
        report(outcome, result);
        outcome.put("powerState", await(driver, endpoint, BmcPowerState.ON, deadline));
      }
      case OFF -> {
        PowerOffMode mode = force ? PowerOffMode.FORCE : PowerOffMode.GRACEFUL;
        PowerResult result = driver.execute(PowerCommand.off(mode), endpoint, deadline);
        outcome.put("action", force ? "force-off" : "off");
        report(outcome, result);
        if (result.reported()) {
          outcome.put("forced", result.forced());
        }
        outcome.put("powerState", await(driver, endpoint, BmcPowerState.OFF, deadline));
      }
      case CYCLE -> {
        PowerResult result = driver.execute(PowerCommand.cycle(), endpoint, deadline);
        outcome.put("action", "cycle");
        report(outcome, result);
        outcome.put("result", "accepted");
      }
      case PXE -> {
        BootOverride override =
            new BootOverride(disk ? BootDevice.DISK : BootDevice.PXE, persistent, bootMode());
        PowerResult result = driver.execute(PowerCommand.boot(override), endpoint, deadline);
        outcome
            .put("action", "boot-override")
            .put("bootDevice", override.device().name().toLowerCase(Locale.ROOT))
            .put("persistent", override.persistent());
        report(outcome, result);
      }
      case INSPECT -> {
        HardwareInfo info = driver.inspect(endpoint, deadline);
        List<Map<String, String>> gpus =
            info.gpus().stream()
                .map(
                    g -> {
                      Map<String, String> gpu = new LinkedHashMap<>();
                      gpu.put("manufacturer", g.manufacturer());
                      gpu.put("model", g.model());
                      return gpu;
                    })
                .toList();
        outcome
            .put("manufacturer", info.manufacturer())
            .put("model", info.model())
            .put("serial", info.serial())
            .put("uuid", info.uuid())
            .put("biosVersion", info.biosVersion())
            .put("cpuCount", info.cpuCount())
            .put("cpuModel", info.cpuModel())
            .put("memoryMiB", info.memoryMiB())
            .put("gpus", gpus)
            .put("macAddresses", info.macAddresses());
      }
      case POWER -> {
        OptionalDouble watts = driver.powerDraw(endpoint, deadline);
        outcome.put("watts", watts.isPresent() ? watts.getAsDouble() : null);
      }
    }
    return outcome;
  }

  /**
   * {@code status} (or {@code power}) of every address of {@code --addresses} and {@code
   * --addresses-file}, concurrently, through one driver (for IPMI one socket), with one credential;
   * one line (or JSON object) per BMC in the order given, as {@code ipmipower -h} prints them.
   * Fails (exit 1) when any BMC failed.
   */
  private int fleet(BmcAction what, PrintWriter out, PrintWriter err, boolean json) {
    if (what != BmcAction.STATUS && what != BmcAction.POWER) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--addresses reads status or power only, not " + action);
    }
    if (powerInterface == null || address != null || nodeId != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--addresses needs --interface, and excludes --address and --node");
    }
    List<String> all = new java.util.ArrayList<>();
    if (addresses != null) {
      addresses.stream().map(String::trim).filter(a -> !a.isEmpty()).forEach(all::add);
    }
    if (addressesFile != null) {
      try {
        for (String line : java.nio.file.Files.readAllLines(addressesFile)) {
          String entry = line.replaceFirst("#.*", "").trim();
          if (!entry.isEmpty()) {
            all.add(entry);
          }
        }
      } catch (IOException e) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "cannot read --addresses-file " + addressesFile);
      }
    }
    if (all.isEmpty() || concurrency < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--addresses: no address given (or --concurrency below 1)");
    }
    address = all.get(0); // endpoint() builds the shared TLS, options and credential name
    BmcEndpoint base = endpoint();
    address = null;
    CredentialSource source =
        credentials == null ? CredentialSource.none() : CredentialStore.ofDirectory(credentials);
    List<BmcOutcome> outcomes = new java.util.ArrayList<>();
    boolean failed = false;
    try (PowerDriverRegistry registry =
            Drivers.standard(source, powerOffCommands(), new PrometheusRegistry());
        var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      PowerDriver driver = registry.driver(powerInterface);
      java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(concurrency);
      List<java.util.concurrent.Future<BmcOutcome>> futures = new java.util.ArrayList<>();
      for (String one : all) {
        BmcEndpoint endpoint =
            new BmcEndpoint(one, base.credentialsName(), base.tls(), base.options());
        futures.add(
            executor.submit(
                () -> {
                  slots.acquire();
                  try {
                    return run(what, driver, endpoint).put("address", one);
                  } catch (PowerException e) {
                    return new BmcOutcome()
                        .put("address", one)
                        .put("error", oneLine(e.getMessage()))
                        .put("reason", e.reason().name().toLowerCase(Locale.ROOT))
                        .put("transient", e.isTransient());
                  } finally {
                    slots.release();
                  }
                }));
      }
      for (var future : futures) {
        try {
          outcomes.add(future.get());
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return FAILED;
        }
      }
    } catch (PowerException e) {
      err.println("bamel bmc " + action + ": " + oneLine(e.getMessage()));
      err.flush();
      return FAILED;
    }
    for (BmcOutcome outcome : outcomes) {
      Map<String, Object> f = outcome.fields();
      failed |= f.containsKey("error");
      if (json) {
        out.println(outcome.json());
      } else if (f.containsKey("error")) {
        out.println(f.get("address") + ": error: " + f.get("error"));
      } else {
        Object value = what == BmcAction.STATUS ? f.get("powerState") : f.get("watts");
        out.println(f.get("address") + ": " + (value == null ? "n/a" : value));
      }
    }
    out.flush();
    return failed ? FAILED : 0;
  }

  /** Adds what the driver says it sent ({@code sent}, {@code notes}), where it reports it. */
  private static void report(BmcOutcome outcome, PowerResult result) {
    if (result.reported()) {
      outcome.put("sent", result.sent());
      if (!result.notes().isEmpty()) {
        outcome.put("notes", result.notes());
      }
    }
  }

  /** The node's BMC from the inventory for {@code --node} alone; null when given by flags. */
  private NodeBmc resolveNode() {
    if (address != null && powerInterface != null) {
      return null;
    }
    if (nodeId == null || address != null || powerInterface != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "give --address and --interface, or --node alone to read them from the inventory");
    }
    if (lookup == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--node without --address needs bamel's inventory (bamel bmc)");
    }
    return lookup.lookup(nodeId);
  }

  /**
   * Where the secret comes from: {@code --credentials DIR} as today (one credential's directory),
   * or, for a node, the directory of its credential name under {@code --credentials} or the
   * lookup's root.
   */
  private CredentialSource credentialSource(NodeBmc node) {
    if (node == null || node.endpoint().credentialsName() == null) {
      return credentials == null
          ? CredentialSource.none()
          : CredentialStore.ofDirectory(credentials);
    }
    String name = node.endpoint().credentialsName();
    if (credentials != null) {
      return java.nio.file.Files.isDirectory(credentials.resolve(name))
          ? new CredentialStore(credentials)
          : CredentialStore.ofDirectory(credentials);
    }
    return node.credentialsRoot() == null
        ? CredentialSource.none()
        : new CredentialStore(node.credentialsRoot());
  }

  /** The node's endpoint, with the TLS and driver options the command line gives on top. */
  private BmcEndpoint nodeEndpoint(NodeBmc node) {
    BmcEndpoint e = node.endpoint();
    TlsSettings tls = e.tls();
    if (insecure || caFile != null || pinSha256 != null) {
      BmcEndpoint flags = endpoint();
      tls = flags.tls();
    }
    Map<String, String> options = new HashMap<>(e.options());
    options.putAll(InterfaceFlags.options(spec));
    return new BmcEndpoint(e.address(), e.credentialsName(), tls, options);
  }

  private BootMode bootMode() {
    if (bootMode == null) {
      return null;
    }
    return switch (bootMode.trim().toLowerCase(Locale.ROOT)) {
      case "uefi" -> BootMode.UEFI;
      case "legacy" -> BootMode.LEGACY;
      default ->
          throw new CommandLine.ParameterException(
              spec.commandLine(), "--boot-mode must be uefi or legacy, not " + bootMode);
    };
  }

  /**
   * Re-reads the state until it is {@code target}; returns its wire name. A state that cannot be
   * known (Wake-on-LAN without a probe) is returned as is, without waiting.
   */
  private String await(
      PowerDriver driver, BmcEndpoint endpoint, BmcPowerState target, Deadline deadline)
      throws PowerException {
    while (true) {
      BmcPowerState state = driver.bmcPowerState(endpoint, deadline);
      if (state == target || state == BmcPowerState.UNKNOWN && noProbe()) {
        return state.wireName();
      }
      if (deadline.remaining().toMillis() <= pollMillis) {
        throw new io.bamel.power.TransientPowerException(
            PowerException.Reason.TIMEOUT,
            "the BMC still reports " + state.wireName() + " after " + timeoutSeconds + " s");
      }
      try {
        Thread.sleep(pollMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new io.bamel.power.TransientPowerException(
            PowerException.Reason.TIMEOUT, "interrupted");
      }
    }
  }

  private PowerOffCommands powerOffCommands() {
    if (offCommandsFile == null) {
      return PowerOffCommands.empty();
    }
    try {
      return PowerOffCommands.load(offCommandsFile);
    } catch (IOException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "cannot read --off-commands-file " + offCommandsFile);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--off-commands-file " + oneLine(e.getMessage()));
    }
  }

  private boolean noProbe() {
    return WolDriver.INTERFACE.equalsIgnoreCase(powerInterface)
        && !InterfaceFlags.options(spec).containsKey(WolDriver.OPTION_PROBE);
  }

  /** The endpoint the flags describe (package-private for the flags' test). */
  BmcEndpoint endpoint() {
    if (insecure && (caFile != null || pinSha256 != null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--insecure excludes --ca-file and --pin-sha256");
    }
    if (caFile != null && pinSha256 != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--ca-file and --pin-sha256 exclude each other: a pinned certificate is trusted by its"
              + " fingerprint alone, so the CA bundle would be ignored; give one of them");
    }
    TlsSettings tls =
        insecure ? TlsSettings.insecureSkipVerify() : new TlsSettings(caFile, false, pinSha256);
    Map<String, String> options = new HashMap<>(InterfaceFlags.options(spec));
    put(options, WolDriver.OPTION_NODE, nodeId);
    String name = credentials == null ? null : String.valueOf(credentials.getFileName());
    return new BmcEndpoint(address, name, tls, options);
  }

  private static void put(Map<String, String> options, String key, String value) {
    if (value != null) {
      options.put(key, value);
    }
  }

  private static String oneLine(String message) {
    return message == null ? "failed" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
  }

  /** Without a logging backend on the class path, logs are dropped rather than warned about. */
  static void quietLogging() {
    if (System.getProperty("slf4j.provider") != null) {
      return;
    }
    try {
      Class.forName("ch.qos.logback.classic.spi.LogbackServiceProvider");
    } catch (ClassNotFoundException e) {
      System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
      System.setProperty("slf4j.internal.verbosity", "WARN");
    }
  }
}
