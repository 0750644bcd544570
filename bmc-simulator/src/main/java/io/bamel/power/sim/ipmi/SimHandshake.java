package io.bamel.power.sim.ipmi;

import java.util.Arrays;

/**
 * The BMC's side of session establishment (IPMI v2.0 sections 13.17 to 13.20 and 13.31): Open
 * Session Request to Response, RAKP Message 1 to 2 and RAKP Message 3 to 4, with the RMCP+ status
 * codes of table 13-15 for refusals. An unknown user gets RAKP 2 status 0Dh (unauthorized name); a
 * wrong password is found by the console in RAKP 2's code, or by the BMC in RAKP 3's, which it
 * answers with RAKP 4 status 0Fh (invalid integrity check value) and the session is gone.
 */
final class SimHandshake {

  static final int OK = 0x00;
  static final int NO_RESOURCES = 0x01;
  static final int INVALID_SESSION_ID = 0x02;
  static final int INVALID_AUTHENTICATION = 0x04;
  static final int INVALID_INTEGRITY = 0x05;
  static final int INVALID_ROLE = 0x09;
  static final int UNAUTHORIZED_ROLE = 0x0a;
  static final int INVALID_NAME_LENGTH = 0x0c;
  static final int UNAUTHORIZED_NAME = 0x0d;
  static final int INVALID_INTEGRITY_CHECK = 0x0f;
  static final int INVALID_CONFIDENTIALITY = 0x10;
  static final int NO_CIPHER_SUITE_MATCH = 0x11;
  static final int ILLEGAL_PARAMETER = 0x12;

  private SimHandshake() {}

  /** Open Session Request (13.17) to Open Session Response (13.18). */
  static byte[] openSession(SimIpmiBmc bmc, byte[] p, long now) {
    if (p.length < 32) {
      return p.length >= 8
          ? refusal(Packets.OPEN_SESSION_RESPONSE, p[0], Wire.u32(p, 4), ILLEGAL_PARAMETER)
          : null;
    }
    int tag = p[0];
    int privilege = p[1] & 0x0f;
    int consoleId = Wire.u32(p, 4);
    if (p[8] != 0x00 || p[11] != 8 || p[16] != 0x01 || p[19] != 8 || p[24] != 0x02 || p[27] != 8) {
      return refusal(Packets.OPEN_SESSION_RESPONSE, tag, consoleId, ILLEGAL_PARAMETER);
    }
    int authentication = p[12] & 0x3f;
    int integrity = p[20] & 0x3f;
    int confidentiality = p[28] & 0x3f;
    int status = OK;
    if (privilege > SimIpmiUser.ADMINISTRATOR) {
      status = INVALID_ROLE;
    } else if (consoleId == 0) {
      status = INVALID_SESSION_ID;
    } else if (!SimCipherSuite.offersAuthentication(authentication)) {
      status = INVALID_AUTHENTICATION;
    } else if (!SimCipherSuite.offersIntegrity(integrity)) {
      status = INVALID_INTEGRITY;
    } else if (confidentiality != SimCipherSuite.AES_CBC_128) {
      status = INVALID_CONFIDENTIALITY;
    }
    var suite = SimCipherSuite.of(authentication, integrity, confidentiality);
    if (status == OK && suite.isEmpty()) {
      status = NO_CIPHER_SUITE_MATCH;
    }
    if (status != OK) {
      return refusal(Packets.OPEN_SESSION_RESPONSE, tag, consoleId, status);
    }
    SimSession s = bmc.newSession(consoleId, suite.get(), privilege, now);
    if (s == null) {
      return refusal(Packets.OPEN_SESSION_RESPONSE, tag, consoleId, NO_RESOURCES);
    }
    byte[] r = new byte[36];
    r[0] = (byte) tag;
    r[1] = OK;
    r[2] = (byte) (privilege == 0 ? SimIpmiUser.ADMINISTRATOR : privilege);
    Wire.put32(r, 4, consoleId);
    Wire.put32(r, 8, s.managedId);
    algorithm(r, 12, 0x00, authentication);
    algorithm(r, 20, 0x01, integrity);
    algorithm(r, 28, 0x02, confidentiality);
    return Packets.v2Handshake(Packets.OPEN_SESSION_RESPONSE, r);
  }

  /** RAKP Message 1 (13.20) to RAKP Message 2 (13.21). */
  static byte[] rakp1(SimIpmiBmc bmc, byte[] p, long now) {
    if (p.length < 28) {
      return null;
    }
    int tag = p[0];
    SimSession s = bmc.session(Wire.u32(p, 4), now);
    if (s == null || s.state == SimSession.State.ACTIVE) {
      return refusal(Packets.RAKP_2, tag, 0, INVALID_SESSION_ID);
    }
    int role = p[24] & 0xff;
    int privilege = role & 0x0f;
    int nameLength = p[27] & 0xff;
    if (nameLength > 16 || p.length < 28 + nameLength) {
      bmc.endSession(s);
      return refusal(Packets.RAKP_2, tag, s.consoleId, INVALID_NAME_LENGTH);
    }
    byte[] name = Arrays.copyOfRange(p, 28, 28 + nameLength);
    SimIpmiUser user = bmc.user(name);
    int status = OK;
    if ((role & 0xe0) != 0 || privilege < 1 || privilege > SimIpmiUser.ADMINISTRATOR) {
      status = INVALID_ROLE;
    } else if (user == null) {
      status = UNAUTHORIZED_NAME;
    } else if (privilege > user.maxPrivilege()
        || (s.openPrivilege != 0 && privilege > s.openPrivilege)) {
      status = UNAUTHORIZED_ROLE;
    }
    if (status != OK) {
      bmc.endSession(s);
      bmc.loginRefused();
      return refusal(Packets.RAKP_2, tag, s.consoleId, status);
    }
    byte[] consoleRandom = Arrays.copyOfRange(p, 8, 24);
    // A repeated RAKP 1 (its RAKP 2 lost) gets the same random number back, so that either RAKP 2
    // the console receives leads to the same keys.
    if (s.bmcRandom == null || !Arrays.equals(consoleRandom, s.consoleRandom)) {
      s.bmcRandom = bmc.random(16);
    }
    s.consoleRandom = consoleRandom;
    s.role = role;
    s.userName = name;
    s.user = user;
    s.maxPrivilege = privilege;
    s.privilege = Math.min(SimIpmiUser.USER, privilege);
    s.state = SimSession.State.RAKP2_SENT;
    byte[] code =
        s.suite.hmac(
            user.key(),
            le32(s.consoleId),
            le32(s.managedId),
            s.consoleRandom,
            s.bmcRandom,
            bmc.guidBytes(),
            new byte[] {(byte) role, (byte) nameLength},
            name);
    byte[] r = new byte[40 + code.length];
    r[0] = (byte) tag;
    r[1] = OK;
    Wire.put32(r, 4, s.consoleId);
    System.arraycopy(s.bmcRandom, 0, r, 8, 16);
    System.arraycopy(bmc.guidBytes(), 0, r, 24, 16);
    System.arraycopy(code, 0, r, 40, code.length);
    return Packets.v2Handshake(Packets.RAKP_2, r);
  }

  /** RAKP Message 3 (13.22) to RAKP Message 4 (13.23); the session is active after it. */
  static byte[] rakp3(SimIpmiBmc bmc, byte[] p, long now) {
    if (p.length < 8) {
      return null;
    }
    int tag = p[0];
    SimSession s = bmc.session(Wire.u32(p, 4), now);
    if (s == null || s.state == SimSession.State.OPENED) {
      return refusal(Packets.RAKP_4, tag, 0, INVALID_SESSION_ID);
    }
    if (p[1] != OK) {
      bmc.endSession(s); // the console gives up (it found RAKP 2's code wrong, say)
      return null;
    }
    SimIpmiUser user = s.user;
    byte[] nameLength = {(byte) s.role, (byte) s.userName.length};
    byte[] expected =
        s.suite.hmac(user.key(), s.bmcRandom, le32(s.consoleId), nameLength, s.userName);
    if (!SimCipherSuite.matches(expected, p, 8, expected.length)
        || p.length != 8 + expected.length) {
      bmc.endSession(s);
      bmc.loginRefused();
      return refusal(Packets.RAKP_4, tag, s.consoleId, INVALID_INTEGRITY_CHECK);
    }
    // No BMC key (Kg) is set: the session integrity key is made with the user's key (13.31).
    byte[] sik = s.suite.hmac(user.key(), s.consoleRandom, s.bmcRandom, nameLength, s.userName);
    s.k1 = s.suite.derived(sik, 0x01);
    s.k2 = s.suite.derived(sik, 0x02);
    if (s.state != SimSession.State.ACTIVE) {
      s.state = SimSession.State.ACTIVE;
      bmc.sessionActivated();
    }
    byte[] check =
        Arrays.copyOf(
            s.suite.hmac(sik, s.consoleRandom, le32(s.managedId), bmc.guidBytes()),
            s.suite.integrityLength);
    byte[] r = new byte[8 + check.length];
    r[0] = (byte) tag;
    r[1] = OK;
    Wire.put32(r, 4, s.consoleId);
    System.arraycopy(check, 0, r, 8, check.length);
    return Packets.v2Handshake(Packets.RAKP_4, r);
  }

  /** A refusal: message tag, status code, two reserved bytes and the console's session ID. */
  private static byte[] refusal(int type, int tag, int consoleId, int status) {
    byte[] r = new byte[8];
    r[0] = (byte) tag;
    r[1] = (byte) status;
    Wire.put32(r, 4, consoleId);
    return Packets.v2Handshake(type, r);
  }

  private static void algorithm(byte[] r, int at, int type, int algorithm) {
    r[at] = (byte) type;
    r[at + 3] = 8;
    r[at + 4] = (byte) algorithm;
  }

  private static byte[] le32(int value) {
    byte[] b = new byte[4];
    Wire.put32(b, 0, value);
    return b;
  }
}
