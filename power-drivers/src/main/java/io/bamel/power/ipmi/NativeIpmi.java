package io.bamel.power.ipmi;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPacer;
import io.bamel.power.BootDevice;
import io.bamel.power.BootMode;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.credentials.Destination;
import io.bamel.power.ipmi.fru.FruInventory;
import io.bamel.power.ipmi.rmcp.CipherSuite;
import io.bamel.power.ipmi.rmcp.IpmiCommand;
import io.bamel.power.ipmi.rmcp.IpmiMessage;
import io.bamel.power.ipmi.rmcp.IpmiReplies;
import io.bamel.power.ipmi.rmcp.Login;
import io.bamel.power.ipmi.rmcp.Retransmission;
import io.bamel.power.ipmi.rmcp.RmcpClient;
import io.bamel.power.net.HostAddresses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * The IPMI driver's commands over bamel's RMCP+ client ({@link RmcpClient}): one client and one UDP
 * socket for every BMC, opened on first use. Each command resolves the BMC's host, checks the
 * credential against its allow-list (scheme {@code ipmi}; cipher suite 0, which sends nothing
 * authenticated, only with a credential whose {@code allowed-hosts} holds {@code
 * insecure-skip-verify}), waits for the BMC's turn ({@link BmcPacer}), and turns the password into
 * bytes that are overwritten once the call returns.
 */
final class NativeIpmi implements AutoCloseable {

  private final CredentialSource credentials;
  private final IpmiConfig config;
  private final BmcPacer pacer;
  private RmcpClient client; // opened on first use; guarded by this

  NativeIpmi(CredentialSource credentials, IpmiConfig config, BmcPacer pacer) {
    this.credentials = credentials;
    this.config = config;
    this.pacer = pacer;
  }

  /** Get Chassis Status: whether the system is on. */
  boolean powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    IpmiMessage.Response status = call(endpoint, deadline, IpmiCommand.chassisStatus());
    try {
      return IpmiReplies.powerOn(status.data());
    } catch (IllegalArgumentException e) {
      throw new TransientPowerException(
          PowerException.Reason.PROTOCOL,
          "Get Chassis Status on " + endpoint.address() + ": " + e.getMessage());
    }
  }

  /** Chassis Control. */
  void control(BmcEndpoint endpoint, Deadline deadline, IpmiCommand.ChassisAction action)
      throws PowerException {
    call(endpoint, deadline, IpmiCommand.chassisControl(action));
  }

  /** Set System Boot Options' boot flags; the EFI bit for UEFI, else legacy. */
  void boot(BmcEndpoint endpoint, Deadline deadline, BootOverride override) throws PowerException {
    call(
        endpoint,
        deadline,
        IpmiCommand.bootFlags(
            override.device() == BootDevice.PXE,
            override.persistent(),
            override.mode() == BootMode.UEFI));
  }

  /** DCMI Get Power Reading; empty when the BMC has no DCMI or no active reading. */
  OptionalDouble watts(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    IpmiMessage.Response reading = call(endpoint, deadline, IpmiCommand.dcmiPowerReading(), true);
    if (!reading.ok()) {
      return OptionalDouble.empty();
    }
    OptionalInt watts = IpmiReplies.watts(reading.data());
    return watts.isPresent() ? OptionalDouble.of(watts.getAsInt()) : OptionalDouble.empty();
  }

  /** Get System GUID. */
  UUID systemGuid(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return IpmiReplies.systemGuid(call(endpoint, deadline, IpmiCommand.systemGuid()).data());
  }

  /**
   * The FRU inventory of FRU device 0 (Get FRU Inventory Area Info, then Read FRU Data of its
   * common header and of the areas it points to), all in one turn of the BMC; empty when the BMC
   * has no FRU device 0.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#PROTOCOL} when the data breaks the
   *     FRU specification (a checksum, a length past the end), saying where
   */
  Optional<FruInventory> fru(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return inTurn(
        endpoint,
        deadline,
        "FRU inventory",
        (bmc, access) -> FruRead.of(bmc, access, 0).inventory());
  }

  private IpmiMessage.Response call(BmcEndpoint endpoint, Deadline deadline, IpmiCommand command)
      throws PowerException {
    return call(endpoint, deadline, command, false);
  }

  /**
   * Sends {@code command}; a completion code other than 0 is an error (unless {@code anyCode}):
   * insufficient privilege is terminal {@link PowerException.Reason#INVALID_CONFIG}, an unknown
   * command terminal {@link PowerException.Reason#UNSUPPORTED}, node busy transient {@link
   * PowerException.Reason#BUSY}, anything else transient {@link PowerException.Reason#BMC_ERROR}.
   */
  private IpmiMessage.Response call(
      BmcEndpoint endpoint, Deadline deadline, IpmiCommand command, boolean anyCode)
      throws PowerException {
    return inTurn(
        endpoint,
        deadline,
        command.name(),
        (bmc, access) -> {
          IpmiMessage.Response response = bmc.send(command);
          if (!anyCode) {
            check(response, command.name() + " on " + bmc.name(), access);
          }
          return response;
        });
  }

  /** The BMC of one turn: sends commands in the session of the turn's login. */
  interface TurnBmc {
    /** Sends {@code command} and returns the response, whatever its completion code. */
    IpmiMessage.Response send(IpmiCommand command) throws PowerException;

    /** {@code host:port}, for messages. */
    String name();
  }

  /** Work done in one turn of a BMC: one command, or the several reads of its FRU inventory. */
  interface TurnWork<T> {
    T run(TurnBmc bmc, IpmiAccess access) throws PowerException;
  }

  /**
   * Resolves the BMC's host, checks the credential against its allow-list, waits for the BMC's turn
   * and runs {@code work} in it, the password overwritten once it returns.
   */
  private <T> T inTurn(BmcEndpoint endpoint, Deadline deadline, String name, TurnWork<T> work)
      throws PowerException {
    IpmiTarget target = IpmiTarget.parse(endpoint.address());
    IpmiAccess access = IpmiAccess.of(endpoint, config);
    String bmc = target.host() + ":" + target.port();
    String what = name + " on " + bmc;
    CipherSuite suite =
        CipherSuite.of(access.cipherSuite())
            .orElseThrow(
                () ->
                    new TerminalPowerException(
                        PowerException.Reason.INVALID_CONFIG,
                        what
                            + ": bamel's IPMI client does not implement cipher suite "
                            + access.cipherSuite()
                            + " (it has 0-3 and 15-17); use 3 or 17, or set the node's "
                            + "ipmi.implementation to ipmitool"));
    List<InetAddress> resolved = HostAddresses.resolve(target.host());
    // Without a credential: the anonymous user with an empty password, as ipmitool would log in.
    // Suite 0 authenticates nothing: only a credential that allows insecure use may go there.
    Credentials secret =
        endpoint.credentialsName() == null
            ? Credentials.of(null, null)
            : credentials.credentials(
                endpoint.credentialsName(),
                new Destination("ipmi", target.host(), resolved, suite.id() == 0));
    byte[] user = secret.user().orElse("").getBytes(StandardCharsets.UTF_8);
    byte[] password = secret.secret().orElse("").getBytes(StandardCharsets.UTF_8);
    Login login;
    try {
      login =
          new Login(
              new InetSocketAddress(resolved.get(0), target.port()),
              user,
              password,
              suite,
              Login.privilege(access.privilege()));
    } catch (IllegalArgumentException e) {
      java.util.Arrays.fill(password, (byte) 0);
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, what + ": " + e.getMessage());
    }
    try {
      var turn = pacer.acquire(bmc, deadline.remaining());
      if (turn.isEmpty()) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT, what + ": BMC busy with other commands");
      }
      BmcPacer.Turn held = turn.get();
      try {
        deadline.check(what);
        TurnBmc sender =
            new TurnBmc() {
              @Override
              public IpmiMessage.Response send(IpmiCommand command) throws PowerException {
                Duration timeout = deadline.atMost(config.commandTimeout()).remaining();
                return client().call(login, command, timeout);
              }

              @Override
              public String name() {
                return bmc;
              }
            };
        return work.run(sender, access);
      } finally {
        held.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, what + ": interrupted", e);
    } finally {
      login.clear();
    }
  }

  static void check(IpmiMessage.Response response, String what, IpmiAccess access)
      throws PowerException {
    int code = response.completionCode();
    if (code == 0) {
      return;
    }
    String text = what + ": " + IpmiReplies.completion(code);
    throw switch (code) {
      case 0xd4 ->
          new TerminalPowerException(
              PowerException.Reason.INVALID_CONFIG,
              text
                  + " at privilege level "
                  + access.privilege()
                  + "; give the node a privilege level the account has (power control needs"
                  + " OPERATOR)");
      case 0xc1, 0xd5, 0xd6 -> new TerminalPowerException(PowerException.Reason.UNSUPPORTED, text);
      case 0xc0, 0xd2 -> new TransientPowerException(PowerException.Reason.BUSY, text);
      default -> new TransientPowerException(PowerException.Reason.BMC_ERROR, text);
    };
  }

  private synchronized RmcpClient client() {
    if (client == null) {
      try {
        client =
            new RmcpClient(
                new Retransmission(config.retransmitTimeout(), config.retries() + 1),
                config.sessionIdle());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open a UDP socket for IPMI", e);
      }
    }
    return client;
  }

  @Override
  public synchronized void close() throws IOException {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
