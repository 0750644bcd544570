package io.bamel.power.ipmi;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPacer;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootDevice;
import io.bamel.power.BootMode;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.ReportingPowerDriver;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.credentials.Destination;
import io.bamel.power.ipmi.rmcp.IpmiCommand;
import io.bamel.power.net.HostAddresses;
import io.bamel.power.process.ProcessResult;
import io.bamel.power.process.ProcessRunner;
import io.bamel.power.process.SystemProcessRunner;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The IPMI driver (interface {@code ipmi}): speaks IPMI v2.0 (RMCP+) to the BMC with bamel's own
 * client ({@link io.bamel.power.ipmi.rmcp.RmcpClient}, one UDP socket and kept sessions for every
 * BMC), or runs {@code ipmitool -I lanplus} as a subprocess where a node's option {@link
 * #OPTION_IMPLEMENTATION} (or the driver's {@link IpmiConfig#implementation()}) says {@code
 * ipmitool}. FRU inspection ({@link #inspect}) too: natively, Read FRU Data parsed in process. What
 * follows holds for both unless it names ipmitool; the native client's own contract is {@link
 * NativeIpmi}'s.
 *
 * <ul>
 *   <li>The native client holds the password as bytes only until its session is open. The password
 *       reaches ipmitool through its environment ({@code -E}, variable {@code IPMI_PASSWORD}),
 *       never its command line.
 *   <li>Before each command the BMC's host is resolved and the credential checked against its
 *       allow-list ({@link CredentialSource#credentials(String, Destination)}, scheme {@code
 *       ipmi}); the native client sends to that checked address, and ipmitool gets it ({@code -H}),
 *       never the name, so it cannot resolve it to anywhere else. A refusal is a terminal {@link
 *       PowerException.Reason#NOT_ALLOWED} and nothing is sent.
 *   <li>Port (from the address), cipher suite (default 3) and privilege level (default {@code
 *       ADMINISTRATOR}) are configurable per endpoint ({@link IpmiAccess}: suites 0 to 17, {@code
 *       USER}, {@code OPERATOR} or {@code ADMINISTRATOR}; another value is a terminal {@link
 *       PowerException.Reason#INVALID_CONFIG} before ipmitool runs). A BMC refusing the cipher
 *       suite, the privilege level or the password is a terminal failure saying which ({@link
 *       IpmiOutput#failure(String, String, ProcessResult, IpmiAccess)}).
 *   <li>A graceful off sends {@code chassis power soft}; a BMC that refuses it gets no hard off in
 *       its place (the call fails as unsupported); the driver forces off only after its graceful
 *       timeout, and {@link #execute} says so. {@link #execute} reports the {@code chassis power}
 *       verbs sent ({@code soft}, {@code off}, ...) or {@code bootdev pxe}.
 *   <li>A call still going at its timeout (the sooner of the configured command timeout and the
 *       call's deadline) ends as a transient failure: the native client stops waiting, an ipmitool
 *       run is killed.
 *   <li>One command at a time per BMC, with a minimum interval between commands (a diagnostic
 *       re-run with {@code -v} included).
 * </ul>
 */
public final class IpmiDriver extends ReportingPowerDriver {

  /** The interface name. */
  public static final String INTERFACE = "ipmi";

  /**
   * Endpoint option: the RMCP+ cipher suite (0 to 17), overriding {@link IpmiConfig#cipherSuite()}.
   */
  public static final String OPTION_CIPHER_SUITE = "cipherSuite";

  /**
   * Endpoint option: the privilege level ({@code USER}, {@code OPERATOR} or {@code ADMINISTRATOR}),
   * overriding {@link IpmiConfig#privilege()}.
   */
  public static final String OPTION_PRIVILEGE = "privilege";

  /**
   * Endpoint option: {@code native} (bamel's RMCP+ client) or {@code ipmitool}, overriding {@link
   * IpmiConfig#implementation()}.
   */
  public static final String OPTION_IMPLEMENTATION = "implementation";

  private final CredentialSource credentials;
  private final IpmiConfig config;
  private final ProcessRunner runner;
  private final Clock clock;
  private final Sleeper sleeper;
  private final BmcPacer pacer;
  private final NativeIpmi nativeIpmi;

  /** A driver with default settings running the real ipmitool. */
  public IpmiDriver(CredentialSource credentials) {
    this(
        credentials,
        IpmiConfig.defaults(),
        new SystemProcessRunner(),
        Clock.systemUTC(),
        Sleeper.SYSTEM);
  }

  /**
   * A driver with default settings running the real ipmitool, reaching BMCs by {@code
   * implementation} unless a node's {@link #OPTION_IMPLEMENTATION} says otherwise (the site-wide
   * setting).
   */
  public IpmiDriver(CredentialSource credentials, IpmiImplementation implementation) {
    this(
        credentials,
        IpmiConfig.defaults().withImplementation(implementation),
        new SystemProcessRunner(),
        Clock.systemUTC(),
        Sleeper.SYSTEM);
  }

  /** A driver with explicit settings, process runner, clock and sleeper. */
  public IpmiDriver(
      CredentialSource credentials,
      IpmiConfig config,
      ProcessRunner runner,
      Clock clock,
      Sleeper sleeper) {
    this.credentials = credentials;
    this.config = config;
    this.runner = runner;
    this.clock = clock;
    this.sleeper = sleeper;
    this.pacer = new BmcPacer(config.minInterval(), clock, sleeper);
    this.nativeIpmi = new NativeIpmi(credentials, config, pacer);
  }

  /**
   * How this driver reaches {@code endpoint}'s BMC: the node's {@link #OPTION_IMPLEMENTATION} when
   * set, else the driver's (the site's) default.
   *
   * @throws TerminalPowerException when the node's option is neither {@code native} nor {@code
   *     ipmitool}
   */
  public IpmiImplementation implementation(BmcEndpoint endpoint) throws TerminalPowerException {
    return IpmiImplementation.of(endpoint, config.implementation());
  }

  private boolean isNative(BmcEndpoint endpoint) throws TerminalPowerException {
    return implementation(endpoint) == IpmiImplementation.NATIVE;
  }

  /** {@code chassis power VERB} (on, off, cycle, soft): Chassis Control natively, else ipmitool. */
  private void chassisPower(BmcEndpoint endpoint, Deadline deadline, String verb)
      throws PowerException {
    if (isNative(endpoint)) {
      nativeIpmi.control(
          endpoint,
          deadline,
          switch (verb) {
            case "on" -> IpmiCommand.ChassisAction.POWER_UP;
            case "off" -> IpmiCommand.ChassisAction.POWER_DOWN;
            case "cycle" -> IpmiCommand.ChassisAction.POWER_CYCLE;
            case "soft" -> IpmiCommand.ChassisAction.SOFT_SHUTDOWN;
            default -> throw new IllegalArgumentException(verb);
          });
    } else {
      run(endpoint, deadline, "chassis", "power", verb);
    }
  }

  @Override
  public String powerInterface() {
    return INTERFACE;
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    if (isNative(endpoint)) {
      return nativeIpmi.powerOn(endpoint, deadline) ? BmcPowerState.ON : BmcPowerState.OFF;
    }
    ProcessResult result = run(endpoint, deadline, "chassis", "power", "status");
    BmcPowerState state = IpmiOutput.powerState(result.stdout());
    if (state == BmcPowerState.UNKNOWN) {
      throw new TransientPowerException(
          PowerException.Reason.BMC_ERROR,
          "chassis power status on "
              + endpoint.address()
              + ": unexpected output: "
              + IpmiOutput.errorLine(result.stdout()));
    }
    return state;
  }

  @Override
  public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    PowerResult.Builder result = new PowerResult.Builder();
    switch (command) {
      case PowerCommand.On on -> {
        chassisPower(endpoint, deadline, "on");
        result.sent("power on");
      }
      case PowerCommand.Off off -> off(endpoint, off.mode(), result, deadline);
      case PowerCommand.Cycle cycle -> {
        if (bmcPowerState(endpoint, deadline) == BmcPowerState.OFF) {
          // many BMCs refuse to cycle a system that is off
          chassisPower(endpoint, deadline, "on");
          result.sent("power on").note("the system was off: switched on");
        } else {
          chassisPower(endpoint, deadline, "cycle");
          result.sent("power cycle");
        }
      }
      case PowerCommand.Boot boot -> {
        BootOverride override = boot.override();
        List<String> argv = new ArrayList<>(List.of("chassis", "bootdev"));
        argv.add(override.device() == BootDevice.PXE ? "pxe" : "disk");
        List<String> options = new ArrayList<>();
        if (override.persistent()) {
          options.add("persistent");
        }
        if (override.mode() == BootMode.UEFI) {
          options.add("efiboot");
        } else if (override.mode() == BootMode.LEGACY) {
          result.note("IPMI sets no legacy boot mode explicitly: the BIOS default applies");
        }
        if (!options.isEmpty()) {
          argv.add("options=" + String.join(",", options));
        }
        if (isNative(endpoint)) {
          nativeIpmi.boot(endpoint, deadline, override);
        } else {
          run(endpoint, deadline, argv.toArray(String[]::new));
        }
        result.sent("bootdev " + String.join(" ", argv.subList(2, argv.size())));
      }
    }
    return result.build();
  }

  private void off(
      BmcEndpoint endpoint, PowerOffMode mode, PowerResult.Builder result, Deadline deadline)
      throws PowerException {
    if (mode == PowerOffMode.FORCE) {
      chassisPower(endpoint, deadline, "off");
      result.sent("power off");
      return;
    }
    if (bmcPowerState(endpoint, deadline) == BmcPowerState.OFF) {
      result.note("already off");
      return;
    }
    try {
      chassisPower(endpoint, deadline, "soft");
    } catch (PowerException e) {
      if (e.reason() == PowerException.Reason.UNSUPPORTED
          || e.reason() == PowerException.Reason.BMC_ERROR) {
        throw new TerminalPowerException(
            PowerException.Reason.UNSUPPORTED,
            "the BMC at "
                + endpoint.address()
                + " refused a soft (ACPI) power-off ("
                + e.getMessage()
                + "); bamel does not cut the power in its place: ask for a forced power-off",
            e);
      }
      throw e;
    }
    result.sent("power soft");
    if (waitForOff(endpoint, deadline.atMost(config.gracefulTimeout()), deadline)) {
      return;
    }
    chassisPower(endpoint, deadline, "off");
    result
        .sent("power off")
        .forced()
        .note(
            "still on after the graceful timeout of "
                + config.gracefulTimeout().toSeconds()
                + " s: forced off");
    if (!waitForOff(endpoint, deadline, deadline)) {
      throw new TransientPowerException(
          PowerException.Reason.TIMEOUT, "system is not off by the deadline");
    }
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    if (isNative(endpoint)) {
      return nativeIpmi.fru(endpoint, deadline).map(FruFacts::hardware).orElse(FruFacts.NONE);
    }
    String fru = "";
    try {
      fru = run(endpoint, deadline, "fru", "print", "0").stdout();
    } catch (TerminalPowerException e) {
      if (e.reason() != PowerException.Reason.UNSUPPORTED) {
        throw e;
      }
    }
    return IpmiOutput.hardware(fru);
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    if (isNative(endpoint)) {
      return nativeIpmi.watts(endpoint, deadline);
    }
    try {
      return IpmiOutput.watts(run(endpoint, deadline, "dcmi", "power", "reading").stdout());
    } catch (TerminalPowerException e) {
      if (e.reason() == PowerException.Reason.UNSUPPORTED) {
        return OptionalDouble.empty(); // no DCMI on this BMC
      }
      throw e;
    }
  }

  /**
   * The BMC's system GUID (Get System GUID), natively; the identity a BMC keeps across address
   * changes.
   */
  public java.util.UUID systemGuid(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return nativeIpmi.systemGuid(endpoint, deadline);
  }

  /** Closes the native client's sessions (Close Session to each BMC) and its socket. */
  @Override
  public void close() {
    try {
      nativeIpmi.close();
    } catch (IOException e) {
      // the socket is gone either way
    }
  }

  /**
   * Polls until the chassis is off or {@code pollUntil} passes. Each ipmitool call may run until
   * {@code commandDeadline} (the caller's whole deadline), so a call started near the end of the
   * graceful window ends the polling instead of failing the power-off.
   */
  private boolean waitForOff(BmcEndpoint endpoint, Deadline pollUntil, Deadline commandDeadline)
      throws PowerException {
    while (true) {
      if (bmcPowerState(endpoint, commandDeadline) == BmcPowerState.OFF) {
        return true;
      }
      if (pollUntil.remaining().compareTo(config.pollInterval()) <= 0) {
        return false;
      }
      try {
        sleeper.sleep(config.pollInterval());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
      }
    }
  }

  /**
   * The environment variable ipmitool reads the password from when given {@code -E}, as the command
   * line below is: ipmitool's name, so it never changes. The simulator's ipmitool runs use it too.
   */
  public static final String PASSWORD_VARIABLE = "IPMI_PASSWORD";

  /**
   * The ipmitool command line: never holds the password.
   *
   * @param address the checked IP address to send to ({@code -H})
   */
  List<String> argv(
      InetAddress address, IpmiTarget target, IpmiAccess access, String user, String... command) {
    List<String> argv = new ArrayList<>();
    argv.add(config.ipmitool());
    argv.addAll(
        List.of(
            "-I", "lanplus", "-H", address.getHostAddress(), "-p", String.valueOf(target.port())));
    if (user != null) {
      argv.addAll(List.of("-U", user));
    }
    argv.add("-E");
    argv.addAll(
        List.of(
            "-C",
            String.valueOf(access.cipherSuite()),
            "-L",
            access.privilege(),
            "-N",
            String.valueOf(Math.max(1, config.retransmitTimeout().toSeconds())),
            "-R",
            String.valueOf(config.retries())));
    argv.addAll(List.of(command));
    return argv;
  }

  private ProcessResult run(BmcEndpoint endpoint, Deadline deadline, String... command)
      throws PowerException {
    IpmiTarget target = IpmiTarget.parse(endpoint.address());
    IpmiAccess access = IpmiAccess.of(endpoint, config);
    String bmc = target.host() + ":" + target.port();
    String what = String.join(" ", command);
    List<InetAddress> resolved = HostAddresses.resolve(target.host());
    Credentials secret =
        endpoint.credentialsName() == null
            ? Credentials.of(null, null)
            : credentials.credentials(
                endpoint.credentialsName(),
                new Destination("ipmi", target.host(), resolved, false));
    List<String> argv = argv(resolved.get(0), target, access, secret.user().orElse(null), command);
    Map<String, String> environment = Map.of(PASSWORD_VARIABLE, secret.secret().orElse(""));
    try {
      var turn = pacer.acquire(bmc, deadline.remaining());
      if (turn.isEmpty()) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT, what + " on " + bmc + ": BMC busy with other commands");
      }
      BmcPacer.Turn held = turn.get();
      try {
        deadline.check(what + " on " + bmc);
        Duration timeout = deadline.atMost(config.commandTimeout()).remaining();
        Instant start = clock.instant();
        ProcessResult result = runner.run(argv, environment, timeout);
        boolean failed = result.exitCode() != 0 || result.timedOut();
        if (failed
            && IpmiOutput.needsDiagnosis(
                result, Duration.between(start, clock.instant()), config.retransmitTimeout())
            && deadline.remaining().compareTo(config.minInterval()) > 0) {
          // A quick "Unable to establish" session is a refused login; -v tells which. It is one
          // more command to this BMC: the minimum interval applies to it too.
          held.spaceNext();
          deadline.check(what + " -v on " + bmc);
          List<String> verbose = new ArrayList<>(argv);
          verbose.add(1, "-v");
          result =
              runner.run(
                  verbose, environment, deadline.atMost(config.commandTimeout()).remaining());
          failed = result.exitCode() != 0 || result.timedOut();
        }
        if (failed) {
          throw IpmiOutput.failure(bmc, what, result, access);
        }
        return result;
      } finally {
        held.close();
      }
    } catch (IOException e) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          "cannot run " + config.ipmitool() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, what + ": interrupted", e);
    }
  }
}
