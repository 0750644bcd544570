package io.bamel.power.wol;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.process.ProcessResult;
import io.bamel.power.process.ProcessRunner;
import io.bamel.power.process.SystemProcessRunner;
import java.io.IOException;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Wake-on-LAN driver (interface {@code wol}); the address is the node's MAC.
 *
 * <ul>
 *   <li>Power on sends the magic packet {@link WolConfig#repeats()} times to the broadcast address
 *       (option {@link #OPTION_BROADCAST}, default {@code 255.255.255.255:9}).
 *   <li>The state comes from a TCP connect probe to option {@link #OPTION_PROBE} ({@code
 *       host:port}, say port 22 or 10250): connected is on; refused, timed out or no route to the
 *       host is off; a probe host that does not resolve (or a probe that cannot run) is {@link
 *       BmcPowerState#UNKNOWN}, as is the state without a probe.
 *   <li>Power off runs the command that option {@link #OPTION_POWER_OFF_COMMAND} names in the
 *       server's {@link PowerOffCommands} (say an ssh line with a key; never a secret in it), as an
 *       argv without a shell, with the node's values ({@link #OPTION_MGMT_ADDRESS}, the MAC, {@link
 *       #OPTION_NODE}) substituted as separate arguments. A name the server does not define is a
 *       terminal {@link PowerException.Reason#INVALID_CONFIG} naming it, and nothing runs. Without
 *       the option, power off is a terminal {@link PowerException.Reason#UNSUPPORTED}, so no pool
 *       ever picks such a node to switch off.
 * </ul>
 */
public final class WolDriver implements PowerDriver {

  /** The interface name. */
  public static final String INTERFACE = "wol";

  /** Endpoint option: {@code host[:port]} to send magic packets to. */
  public static final String OPTION_BROADCAST = "broadcast";

  /** Endpoint option: {@code host:port} to probe for the power state. */
  public static final String OPTION_PROBE = "probe";

  /** Endpoint option: the name of the {@link PowerOffCommands power-off command}. */
  public static final String OPTION_POWER_OFF_COMMAND = "powerOffCommand";

  /**
   * Endpoint option: the node's {@code mgmtAddress} ({@code {address}}; its host is {@code
   * {host}}).
   */
  public static final String OPTION_MGMT_ADDRESS = "mgmtAddress";

  /** Endpoint option: the node's id ({@code {node}}). */
  public static final String OPTION_NODE = "node";

  private final WolConfig config;
  private final PowerOffCommands commands;
  private final ProcessRunner runner;
  private final Sleeper sleeper;

  /** A driver with default settings and no power-off command (power off is refused). */
  public WolDriver() {
    this(PowerOffCommands.empty());
  }

  /** A driver with default settings running the server's power-off {@code commands}. */
  public WolDriver(PowerOffCommands commands) {
    this(WolConfig.defaults(), commands, new SystemProcessRunner(), Sleeper.SYSTEM);
  }

  /** A driver with explicit settings, power-off commands, process runner and sleeper. */
  public WolDriver(
      WolConfig config, PowerOffCommands commands, ProcessRunner runner, Sleeper sleeper) {
    this.config = config;
    this.commands = commands;
    this.runner = runner;
    this.sleeper = sleeper;
  }

  @Override
  public String powerInterface() {
    return INTERFACE;
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    var probe = endpoint.option(OPTION_PROBE);
    if (probe.isEmpty()) {
      return BmcPowerState.UNKNOWN;
    }
    HostPort target = HostPort.parse(probe.get(), 22);
    deadline.check("probe " + probe.get());
    Duration timeout = deadline.atMost(config.probeTimeout()).remaining();
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(target.host(), target.port()),
          (int) Math.max(1, timeout.toMillis()));
      return BmcPowerState.ON;
    } catch (ConnectException | SocketTimeoutException | NoRouteToHostException e) {
      return BmcPowerState.OFF; // refused, no answer, or nobody at that address: the node is down
    } catch (UnknownHostException e) {
      return BmcPowerState.UNKNOWN; // a name that does not resolve says nothing about the node
    } catch (IOException e) {
      return BmcPowerState.UNKNOWN; // some other local failure: the probe did not run
    }
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    byte[] packet = MagicPacket.forMac(endpoint.address());
    HostPort broadcast =
        HostPort.parse(endpoint.option(OPTION_BROADCAST).orElse(config.defaultBroadcast()), 9);
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.setBroadcast(true);
      InetAddress address = InetAddress.getByName(broadcast.host());
      for (int i = 0; i < config.repeats(); i++) {
        deadline.check("wake " + endpoint.address());
        socket.send(new DatagramPacket(packet, packet.length, address, broadcast.port()));
        if (i + 1 < config.repeats()) {
          sleeper.sleep(config.repeatGap());
        }
      }
    } catch (IOException e) {
      throw new TransientPowerException(
          PowerException.Reason.UNREACHABLE,
          "cannot send the magic packet to " + broadcast.host() + ":" + broadcast.port() + ": " + e,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
    }
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    String name =
        endpoint
            .option(OPTION_POWER_OFF_COMMAND)
            .orElseThrow(
                () ->
                    new TerminalPowerException(
                        PowerException.Reason.UNSUPPORTED,
                        "wol cannot switch a node off without a configured power-off command"));
    List<String> argv = argv(name, endpoint);
    try {
      ProcessResult result = runner.run(argv, Map.of(), deadline.remaining());
      if (result.timedOut()) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT,
            "the power-off command '" + name + "' did not finish in time");
      }
      if (result.exitCode() != 0) {
        throw new TransientPowerException(
            PowerException.Reason.BMC_ERROR,
            "the power-off command '" + name + "' failed with exit code " + result.exitCode());
      }
    } catch (IOException e) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          "cannot run the power-off command '" + name + "': " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
    }
  }

  /** The argv of the command {@code name} for this node, or the terminal failure why none. */
  private List<String> argv(String name, BmcEndpoint endpoint) throws TerminalPowerException {
    Map<String, String> values = new HashMap<>();
    values.put(PowerOffCommands.MAC, endpoint.address());
    endpoint.option(OPTION_NODE).ifPresent(v -> values.put(PowerOffCommands.NODE, v));
    endpoint
        .option(OPTION_MGMT_ADDRESS)
        .ifPresent(
            v -> {
              values.put(PowerOffCommands.ADDRESS, v);
              values.put(PowerOffCommands.HOST, hostOf(v));
            });
    try {
      return commands
          .argv(name, values)
          .orElseThrow(
              () ->
                  new TerminalPowerException(
                      PowerException.Reason.INVALID_CONFIG,
                      "no power-off command named '"
                          + name
                          + "' in the server's configuration (wakeOnLan.powerOffCommandsFile"
                          + " defines: "
                          + (commands.names().isEmpty()
                              ? "none"
                              : String.join(", ", commands.names()))
                          + ")"));
    } catch (IllegalArgumentException e) {
      throw new TerminalPowerException(PowerException.Reason.INVALID_CONFIG, e.getMessage());
    }
  }

  /** The host of a management address: a URL's host, or {@code host[:port]} without the port. */
  static String hostOf(String address) {
    String value = address.trim();
    int scheme = value.indexOf("://");
    if (scheme >= 0) {
      value = value.substring(scheme + 3);
      int end = value.length();
      for (char c : new char[] {'/', '?', '#'}) {
        int at = value.indexOf(c);
        if (at >= 0 && at < end) {
          end = at;
        }
      }
      value = value.substring(0, end);
      value = value.substring(value.lastIndexOf('@') + 1);
    }
    if (value.startsWith("[")) {
      int close = value.indexOf(']');
      return close < 0 ? value.substring(1) : value.substring(1, close);
    }
    int colon = value.indexOf(':');
    return colon >= 0 && colon == value.lastIndexOf(':') ? value.substring(0, colon) : value;
  }

  /** Off (needs the power-off command), wait until the probe says off, then wake. */
  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    powerOff(endpoint, PowerOffMode.FORCE, deadline);
    if (endpoint.option(OPTION_PROBE).isPresent()) {
      while (bmcPowerState(endpoint, deadline) != BmcPowerState.OFF) {
        if (deadline.remaining().compareTo(config.pollInterval()) <= 0) {
          throw new TransientPowerException(
              PowerException.Reason.TIMEOUT, "node still answers after the power-off command");
        }
        try {
          sleeper.sleep(config.pollInterval());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
        }
      }
    }
    powerOn(endpoint, deadline);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    throw TerminalPowerException.unsupported(INTERFACE, "boot device selection");
  }

  @Override
  public void close() {}
}
