package io.bamel.power.wol;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerState;
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
 *       PowerState#UNKNOWN}, as is the state without a probe.
 *   <li>Power off runs option {@link #OPTION_POWER_OFF_COMMAND} ({@code sh -c}, say an ssh line
 *       with a key; never a secret on the command line). Without one, power off is a terminal
 *       {@link PowerException.Reason#UNSUPPORTED}, so no pool ever picks such a node to switch off.
 * </ul>
 */
public final class WolDriver implements PowerDriver {

  /** The interface name. */
  public static final String INTERFACE = "wol";

  /** Endpoint option: {@code host[:port]} to send magic packets to. */
  public static final String OPTION_BROADCAST = "broadcast";

  /** Endpoint option: {@code host:port} to probe for the power state. */
  public static final String OPTION_PROBE = "probe";

  /** Endpoint option: the command that switches the node off. */
  public static final String OPTION_POWER_OFF_COMMAND = "powerOffCommand";

  private final WolConfig config;
  private final ProcessRunner runner;
  private final Sleeper sleeper;

  /** A driver with default settings. */
  public WolDriver() {
    this(WolConfig.defaults(), new SystemProcessRunner(), Sleeper.SYSTEM);
  }

  /** A driver with explicit settings, process runner and sleeper. */
  public WolDriver(WolConfig config, ProcessRunner runner, Sleeper sleeper) {
    this.config = config;
    this.runner = runner;
    this.sleeper = sleeper;
  }

  @Override
  public String powerInterface() {
    return INTERFACE;
  }

  @Override
  public PowerState powerState(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    var probe = endpoint.option(OPTION_PROBE);
    if (probe.isEmpty()) {
      return PowerState.UNKNOWN;
    }
    HostPort target = HostPort.parse(probe.get(), 22);
    deadline.check("probe " + probe.get());
    Duration timeout = deadline.atMost(config.probeTimeout()).remaining();
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(target.host(), target.port()),
          (int) Math.max(1, timeout.toMillis()));
      return PowerState.ON;
    } catch (ConnectException | SocketTimeoutException | NoRouteToHostException e) {
      return PowerState.OFF; // refused, no answer, or nobody at that address: the node is down
    } catch (UnknownHostException e) {
      return PowerState.UNKNOWN; // a name that does not resolve says nothing about the node
    } catch (IOException e) {
      return PowerState.UNKNOWN; // some other local failure: the probe did not run
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
    String command =
        endpoint
            .option(OPTION_POWER_OFF_COMMAND)
            .orElseThrow(
                () ->
                    new TerminalPowerException(
                        PowerException.Reason.UNSUPPORTED,
                        "wol cannot switch a node off without a configured power-off command"));
    try {
      ProcessResult result =
          runner.run(List.of("/bin/sh", "-c", command), Map.of(), deadline.remaining());
      if (result.timedOut()) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT, "the power-off command did not finish in time");
      }
      if (result.exitCode() != 0) {
        throw new TransientPowerException(
            PowerException.Reason.BMC_ERROR,
            "the power-off command failed with exit code " + result.exitCode());
      }
    } catch (IOException e) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG, "cannot run the power-off command: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
    }
  }

  /** Off (needs the power-off command), wait until the probe says off, then wake. */
  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    powerOff(endpoint, PowerOffMode.FORCE, deadline);
    if (endpoint.option(OPTION_PROBE).isPresent()) {
      while (powerState(endpoint, deadline) != PowerState.OFF) {
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
