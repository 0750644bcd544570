package io.bamel.power.ipmi.rmcp;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;

/**
 * One established RMCP+ session with one BMC: its two session IDs, its keys, its outbound sequence
 * number (from 1, one more for every packet, retransmissions included), the window of inbound
 * sequence numbers it accepts, and the 6-bit request sequence of its IPMI messages. {@link #open}
 * runs the handshake; {@link #call} sends one request and returns its response. One call at a time
 * (calls are serialised).
 */
final class RmcpSession {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final RmcpTransport transport;
  private final RmcpTransport.Mailbox mailbox;
  private final int consoleId;
  private final int bmcId;
  private final SessionKeys keys;
  private final SequenceWindow inbound = new SequenceWindow();
  private int outbound = 1;
  private int requestSequence = 1;
  private volatile long lastUsedNanos = System.nanoTime();
  private volatile boolean closed;

  private RmcpSession(
      RmcpTransport transport,
      RmcpTransport.Mailbox mailbox,
      int consoleId,
      int bmcId,
      SessionKeys keys) {
    this.transport = transport;
    this.mailbox = mailbox;
    this.consoleId = consoleId;
    this.bmcId = bmcId;
    this.keys = keys;
  }

  /**
   * Opens a session: Get Channel Authentication Capabilities, Open Session, RAKP 1 to 4, then Set
   * Session Privilege Level. Each refusal is a {@link TerminalPowerException} saying what was
   * refused (cipher suite, privilege level, user, password); silence is a {@link
   * TransientPowerException}.
   */
  static RmcpSession open(
      RmcpTransport transport, Login login, Retransmission retransmission, long deadlineNanos)
      throws PowerException {
    String bmc = login.bmc().getAddress().getHostAddress() + ":" + login.bmc().getPort();
    checkChannel(transport, login, retransmission, deadlineNanos, bmc);
    try {
      return handshake(transport, login, retransmission, deadlineNanos, bmc);
    } catch (TransientPowerException e) {
      // A lost RAKP 2 or 4 leaves the BMC ahead of us (ipmi_sim ignores a repeated RAKP 3 once
      // it has activated the session): start again from Open Session, once.
      if (!e.getMessage().startsWith("no answer to RAKP") || System.nanoTime() >= deadlineNanos) {
        throw e;
      }
      return handshake(transport, login, retransmission, deadlineNanos, bmc);
    }
  }

  private static RmcpSession handshake(
      RmcpTransport transport,
      Login login,
      Retransmission retransmission,
      long deadlineNanos,
      String bmc)
      throws PowerException {
    RmcpTransport.Mailbox mailbox = new RmcpTransport.Mailbox(login.bmc());
    int consoleId = transport.openSession(mailbox);
    transport.handshaking(mailbox);
    boolean opened = false;
    byte[] sik = new byte[0];
    try {
      CipherSuite suite = login.suite();
      int tag = RANDOM.nextInt(256);
      byte[] open =
          RmcpPacket.v20(
              RmcpPacket.OPEN_SESSION_REQUEST,
              Rakp.openSessionRequest(tag, login.privilege(), consoleId, suite));
      Rakp.OpenSessionResponse response =
          Exchange.run(
              transport,
              mailbox,
              () -> open,
              d ->
                  handshake(d, RmcpPacket.OPEN_SESSION_RESPONSE)
                      .flatMap(Rakp::openSessionResponse)
                      .filter(
                          r -> r.tag() == tag && mine(r.consoleSessionId(), r.status(), consoleId)),
              retransmission,
              deadlineNanos,
              "Open Session");
      if (response.status() != 0) {
        throw refused(bmc, "Open Session", response.status(), login);
      }
      if (response.authentication() != suite.authentication()
          || response.integrity() != suite.integrity()
          || response.confidentiality() != suite.confidentiality()) {
        throw new TerminalPowerException(
            PowerException.Reason.INVALID_CONFIG,
            "the BMC at "
                + bmc
                + " answered Open Session for cipher suite "
                + suite.id()
                + " with other algorithms (authentication "
                + response.authentication()
                + ", integrity "
                + response.integrity()
                + ", confidentiality "
                + response.confidentiality()
                + "): set the node's IPMI cipher suite to one the BMC offers");
      }
      int bmcId = response.bmcSessionId();
      byte[] consoleRandom = new byte[16];
      RANDOM.nextBytes(consoleRandom);
      int role = Rakp.role(login.privilege());
      int tag1 = (tag + 1) & 0xff;
      byte[] rakp1 =
          RmcpPacket.v20(
              RmcpPacket.RAKP_1, Rakp.rakp1(tag1, bmcId, consoleRandom, role, login.user()));
      Rakp.Rakp2 rakp2 =
          Exchange.run(
              transport,
              mailbox,
              () -> rakp1,
              d ->
                  handshake(d, RmcpPacket.RAKP_2)
                      .flatMap(p -> Rakp.rakp2(p, suite))
                      .filter(
                          r ->
                              r.tag() == tag1 && mine(r.consoleSessionId(), r.status(), consoleId)),
              retransmission,
              deadlineNanos,
              "RAKP Message 1");
      if (rakp2.status() != 0) {
        throw refused(bmc, "RAKP Message 1", rakp2.status(), login);
      }
      byte[] expected =
          Rakp.rakp2AuthCode(
              suite,
              login.password(),
              consoleId,
              bmcId,
              consoleRandom,
              rakp2.bmcRandom(),
              rakp2.bmcGuid(),
              role,
              login.user());
      if (!Rakp.rakp2Valid(rakp2, expected)) {
        throw new TerminalPowerException(
            PowerException.Reason.BAD_CREDENTIALS,
            "the BMC at "
                + bmc
                + " refused the password (RAKP 2's key exchange code is not the"
                + " one the password gives)");
      }
      sik = Rakp.sik(suite, login.password(), consoleRandom, rakp2.bmcRandom(), role, login.user());
      int tag3 = (tag + 2) & 0xff;
      byte[] rakp3 =
          RmcpPacket.v20(
              RmcpPacket.RAKP_3,
              Rakp.rakp3(
                  tag3,
                  0,
                  bmcId,
                  suite,
                  login.password(),
                  rakp2.bmcRandom(),
                  consoleId,
                  role,
                  login.user()));
      Rakp.Rakp4 rakp4 =
          Exchange.run(
              transport,
              mailbox,
              () -> rakp3,
              d ->
                  handshake(d, RmcpPacket.RAKP_4)
                      .flatMap(p -> Rakp.rakp4(p, suite))
                      .filter(
                          r ->
                              r.tag() == tag3 && mine(r.consoleSessionId(), r.status(), consoleId)),
              retransmission,
              deadlineNanos,
              "RAKP Message 3");
      if (rakp4.status() != 0) {
        throw refused(bmc, "RAKP Message 3", rakp4.status(), login);
      }
      byte[] check = Rakp.rakp4Check(suite, sik, consoleRandom, bmcId, rakp2.bmcGuid());
      if (!java.security.MessageDigest.isEqual(check, rakp4.integrityCheck())) {
        throw new TerminalPowerException(
            PowerException.Reason.BAD_CREDENTIALS,
            "the BMC at "
                + bmc
                + " answered RAKP 4 with another integrity check value: it has a BMC key (K_G),"
                + " which this client does not support");
      }
      RmcpSession session =
          new RmcpSession(transport, mailbox, consoleId, bmcId, Rakp.keys(suite, sik));
      IpmiMessage.Response privilege =
          session.call(
              IpmiCommand.setSessionPrivilege(login.privilege()), retransmission, deadlineNanos);
      boolean granted =
          privilege.ok()
              && (privilege.data().length == 0
                  || (privilege.data()[0] & 0x0f) >= login.privilege());
      if (!granted) {
        session.close(retransmission, deadlineNanos);
        throw new TerminalPowerException(
            PowerException.Reason.INVALID_CONFIG,
            "the BMC at "
                + bmc
                + " refused privilege level "
                + privilegeName(login.privilege())
                + " for this user ("
                + (privilege.ok()
                    ? "it granted " + privilegeName(privilege.data()[0] & 0x0f)
                    : IpmiReplies.completion(privilege.completionCode()))
                + "); give the node a privilege level the account has (power control needs"
                + " OPERATOR)");
      }
      opened = true;
      return session;
    } finally {
      transport.handshakeDone(mailbox);
      Arrays.fill(sik, (byte) 0);
      if (!opened) {
        transport.closeSession(consoleId);
      }
    }
  }

  private static void checkChannel(
      RmcpTransport transport,
      Login login,
      Retransmission retransmission,
      long deadlineNanos,
      String bmc)
      throws PowerException {
    RmcpTransport.Mailbox mailbox = new RmcpTransport.Mailbox(login.bmc());
    int sequence = transport.openUnsessioned(mailbox);
    try {
      IpmiCommand command = IpmiCommand.channelAuthenticationCapabilities(login.privilege());
      byte[] packet =
          RmcpPacket.v15(
              IpmiMessage.request(command.netFn(), command.command(), sequence, command.data()));
      IpmiMessage.Response caps =
          Exchange.run(
              transport,
              mailbox,
              () -> packet,
              d ->
                  RmcpPacket.decode(d, d.length, null)
                      .filter(RmcpPacket::v15)
                      .flatMap(p -> IpmiMessage.response(p.payload()))
                      .filter(r -> r.sequence() == sequence && r.command() == command.command()),
              retransmission,
              deadlineNanos,
              command.name());
      if (!caps.ok() || !IpmiReplies.supportsV20(caps.data())) {
        throw new TerminalPowerException(
            PowerException.Reason.UNSUPPORTED,
            "the BMC at "
                + bmc
                + " does not offer IPMI v2.0 (RMCP+) at privilege level "
                + privilegeName(login.privilege())
                + (caps.ok() ? "" : ": " + IpmiReplies.completion(caps.completionCode())));
      }
    } finally {
      transport.closeUnsessioned(mailbox, sequence);
    }
  }

  /** Whether a handshake answer is for this console session (a bare error names none). */
  private static boolean mine(int answerConsoleId, int status, int consoleId) {
    return answerConsoleId == consoleId || status != 0 && answerConsoleId == 0;
  }

  private static Optional<byte[]> handshake(byte[] datagram, int payloadType) {
    return RmcpPacket.decode(datagram, datagram.length, null)
        .filter(p -> !p.v15() && p.payloadType() == payloadType && p.sessionId() == 0)
        .map(RmcpPacket::payload);
  }

  private static PowerException refused(String bmc, String step, int status, Login login) {
    String text =
        "the BMC at " + bmc + " answered " + step + " with " + RmcpStatus.describe(status);
    return switch (RmcpStatus.kind(status)) {
      case CIPHER_SUITE ->
          new TerminalPowerException(
              PowerException.Reason.INVALID_CONFIG,
              text
                  + ": it does not offer cipher suite "
                  + login.suite().id()
                  + "; set the node's IPMI cipher suite to one the BMC offers");
      case PRIVILEGE ->
          new TerminalPowerException(
              PowerException.Reason.INVALID_CONFIG,
              text
                  + ": privilege level "
                  + privilegeName(login.privilege())
                  + " refused for this user; give the node a privilege level the account has");
      case CREDENTIALS ->
          new TerminalPowerException(
              PowerException.Reason.BAD_CREDENTIALS,
              text + (status == 0x0d ? ": the BMC does not know the user" : ""));
      case OTHER ->
          status == 0x01
              ? new TransientPowerException(PowerException.Reason.BUSY, text)
              : new TransientPowerException(PowerException.Reason.PROTOCOL, text);
    };
  }

  static String privilegeName(int privilege) {
    return switch (privilege) {
      case Login.USER -> "USER";
      case Login.OPERATOR -> "OPERATOR";
      case Login.ADMINISTRATOR -> "ADMINISTRATOR";
      default -> String.valueOf(privilege);
    };
  }

  /**
   * Sends {@code command} in this session and returns the BMC's response, whatever its completion
   * code.
   *
   * @throws TransientPowerException when no authentic, new response with this request's sequence
   *     came back
   */
  synchronized IpmiMessage.Response call(
      IpmiCommand command, Retransmission retransmission, long deadlineNanos)
      throws PowerException {
    int sequence = requestSequence;
    requestSequence = (requestSequence + 1) & 0x3f;
    byte[] message =
        IpmiMessage.request(command.netFn(), command.command(), sequence, command.data());
    try {
      return Exchange.run(
          transport,
          mailbox,
          () -> RmcpPacket.v20(RmcpPacket.IPMI, bmcId, nextOutbound(), message, keys),
          d -> accept(d, command, sequence),
          retransmission,
          deadlineNanos,
          command.name());
    } finally {
      lastUsedNanos = System.nanoTime();
    }
  }

  private int nextOutbound() {
    int sequence = outbound;
    outbound = outbound == -1 ? 1 : outbound + 1;
    return sequence;
  }

  private Optional<IpmiMessage.Response> accept(
      byte[] datagram, IpmiCommand command, int sequence) {
    Optional<RmcpPacket> packet =
        RmcpPacket.decode(datagram, datagram.length, keys)
            .filter(
                p -> !p.v15() && p.payloadType() == RmcpPacket.IPMI && p.sessionId() == consoleId);
    if (packet.isEmpty() || !inbound.accept(packet.get().sequence())) {
      return Optional.empty();
    }
    return IpmiMessage.response(packet.get().payload())
        .filter(
            r ->
                r.sequence() == sequence
                    && r.command() == command.command()
                    && r.netFn() == command.netFn() + 1);
  }

  /** When this session last finished a call, as {@link System#nanoTime()}. */
  long lastUsedNanos() {
    return lastUsedNanos;
  }

  /** Whether {@link #close} ran. */
  boolean closed() {
    return closed;
  }

  /**
   * Sends Close Session and forgets the keys. A BMC that does not answer lets the session expire at
   * its own timeout.
   *
   * @return whether the BMC confirmed
   */
  synchronized boolean close(Retransmission retransmission, long deadlineNanos) {
    if (closed) {
      return false;
    }
    closed = true;
    try {
      return call(IpmiCommand.closeSession(bmcId), retransmission, deadlineNanos).ok();
    } catch (PowerException e) {
      return false;
    } finally {
      transport.closeSession(consoleId);
      keys.clear();
    }
  }
}
