package io.bamel.power.ipmi.rmcp;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;

/**
 * The RMCP+ session establishment messages and their key exchange (IPMI v2.0 sections 13.17 to
 * 13.32): Open Session Request and Response, RAKP Messages 1 to 4, the session integrity key (SIK)
 * and the keys K1 and K2 derived from it. Session IDs enter the HMACs as they travel, little
 * endian; the role byte is the whole RAKP 1 byte (privilege and name-only lookup bit). The BMC key
 * K_G is taken to be unset, so the user's password keys the SIK as it keys RAKP 2 and 3. Pure.
 */
public final class Rakp {

  /** RAKP 1's role bit asking the BMC to look the user up by name only. */
  static final int NAME_ONLY_LOOKUP = 0x10;

  private Rakp() {}

  /** A decoded Open Session Response. */
  record OpenSessionResponse(
      int tag,
      int status,
      int maxPrivilege,
      int consoleSessionId,
      int bmcSessionId,
      int authentication,
      int integrity,
      int confidentiality) {}

  /** A decoded RAKP Message 2. */
  record Rakp2(
      int tag,
      int status,
      int consoleSessionId,
      byte[] bmcRandom,
      byte[] bmcGuid,
      byte[] authCode) {}

  /** A decoded RAKP Message 4. */
  record Rakp4(int tag, int status, int consoleSessionId, byte[] integrityCheck) {}

  /** The Open Session Request proposing {@code suite} at {@code privilege} (2 user to 4 admin). */
  static byte[] openSessionRequest(
      int tag, int privilege, int consoleSessionId, CipherSuite suite) {
    byte[] p = new byte[32];
    p[0] = (byte) tag;
    p[1] = (byte) privilege;
    Bytes.putLe32(p, 4, consoleSessionId);
    algorithm(p, 8, 0x00, suite.authentication());
    algorithm(p, 16, 0x01, suite.integrity());
    algorithm(p, 24, 0x02, suite.confidentiality());
    return p;
  }

  private static void algorithm(byte[] p, int at, int payloadType, int algorithm) {
    p[at] = (byte) payloadType;
    p[at + 3] = 0x08;
    p[at + 4] = (byte) algorithm;
  }

  /** The Open Session Response in {@code p}, empty when too short. */
  static Optional<OpenSessionResponse> openSessionResponse(byte[] p) {
    if (p.length < 2) {
      return Optional.empty();
    }
    int status = Bytes.u8(p, 1);
    if (status != 0) {
      // an error response may stop after the console session ID, or even after the status
      return Optional.of(
          new OpenSessionResponse(
              Bytes.u8(p, 0), status, 0, p.length >= 8 ? Bytes.le32(p, 4) : 0, 0, -1, -1, -1));
    }
    if (p.length < 8) {
      return Optional.empty();
    }
    if (p.length < 36) {
      return Optional.empty();
    }
    return Optional.of(
        new OpenSessionResponse(
            Bytes.u8(p, 0),
            status,
            Bytes.u8(p, 2) & 0x0f,
            Bytes.le32(p, 4),
            Bytes.le32(p, 8),
            Bytes.u8(p, 16) & 0x3f,
            Bytes.u8(p, 24) & 0x3f,
            Bytes.u8(p, 32) & 0x3f));
  }

  /** The role byte of RAKP 1 and the HMACs: the privilege with name-only lookup. */
  static int role(int privilege) {
    return NAME_ONLY_LOOKUP | privilege;
  }

  /** RAKP Message 1. */
  static byte[] rakp1(int tag, int bmcSessionId, byte[] consoleRandom, int role, byte[] user) {
    byte[] p = new byte[28 + user.length];
    p[0] = (byte) tag;
    Bytes.putLe32(p, 4, bmcSessionId);
    System.arraycopy(consoleRandom, 0, p, 8, 16);
    p[24] = (byte) role;
    p[27] = (byte) user.length;
    System.arraycopy(user, 0, p, 28, user.length);
    return p;
  }

  /** RAKP Message 2 in {@code p}, empty when too short for its status and suite. */
  static Optional<Rakp2> rakp2(byte[] p, CipherSuite suite) {
    if (p.length < 2 || p.length < 8 && p[1] == 0) {
      return Optional.empty();
    }
    int status = Bytes.u8(p, 1);
    int consoleId = p.length >= 8 ? Bytes.le32(p, 4) : 0;
    if (status != 0) {
      return Optional.of(new Rakp2(Bytes.u8(p, 0), status, consoleId, null, null, null));
    }
    int codeLength = hmacLength(suite);
    if (p.length < 40 + codeLength) {
      return Optional.empty();
    }
    return Optional.of(
        new Rakp2(
            Bytes.u8(p, 0),
            status,
            consoleId,
            Arrays.copyOfRange(p, 8, 24),
            Arrays.copyOfRange(p, 24, 40),
            Arrays.copyOfRange(p, 40, 40 + codeLength)));
  }

  private static int hmacLength(CipherSuite suite) {
    return switch (suite.authentication()) {
      case CipherSuite.AUTH_HMAC_SHA1 -> 20;
      case CipherSuite.AUTH_HMAC_SHA256 -> 32;
      default -> 0;
    };
  }

  /**
   * RAKP 2's key exchange AuthCode as the BMC computes it: HMAC_Kuid(SIDm, SIDc, Rm, Rc, GUIDc,
   * ROLEm, ULENGTHm, UNAMEm); empty for RAKP-none.
   */
  static byte[] rakp2AuthCode(
      CipherSuite suite,
      byte[] password,
      int consoleSessionId,
      int bmcSessionId,
      byte[] consoleRandom,
      byte[] bmcRandom,
      byte[] bmcGuid,
      int role,
      byte[] user) {
    if (suite.rakpHmac() == null) {
      return new byte[0];
    }
    return Bytes.hmac(
        suite.rakpHmac(),
        password,
        Bytes.le32(consoleSessionId),
        Bytes.le32(bmcSessionId),
        consoleRandom,
        bmcRandom,
        bmcGuid,
        new byte[] {(byte) role, (byte) user.length},
        user);
  }

  /** Whether RAKP 2's AuthCode is the expected one (in constant time). */
  static boolean rakp2Valid(Rakp2 rakp2, byte[] expected) {
    return MessageDigest.isEqual(expected, rakp2.authCode());
  }

  /** RAKP Message 3: HMAC_Kuid(Rc, SIDm, ROLEm, ULENGTHm, UNAMEm) for a successful exchange. */
  static byte[] rakp3(
      int tag,
      int status,
      int bmcSessionId,
      CipherSuite suite,
      byte[] password,
      byte[] bmcRandom,
      int consoleSessionId,
      int role,
      byte[] user) {
    byte[] code =
        status != 0 || suite.rakpHmac() == null
            ? new byte[0]
            : Bytes.hmac(
                suite.rakpHmac(),
                password,
                bmcRandom,
                Bytes.le32(consoleSessionId),
                new byte[] {(byte) role, (byte) user.length},
                user);
    byte[] p = new byte[8 + code.length];
    p[0] = (byte) tag;
    p[1] = (byte) status;
    Bytes.putLe32(p, 4, bmcSessionId);
    System.arraycopy(code, 0, p, 8, code.length);
    return p;
  }

  /** The session integrity key: HMAC_Kg(Rm, Rc, ROLEm, ULENGTHm, UNAMEm), K_G being Kuid. */
  static byte[] sik(
      CipherSuite suite,
      byte[] password,
      byte[] consoleRandom,
      byte[] bmcRandom,
      int role,
      byte[] user) {
    if (suite.rakpHmac() == null) {
      return new byte[0];
    }
    return Bytes.hmac(
        suite.rakpHmac(),
        password,
        consoleRandom,
        bmcRandom,
        new byte[] {(byte) role, (byte) user.length},
        user);
  }

  /**
   * K1 and K2: HMAC_SIK of 20 bytes of 0x01, and of 0x02. Const 1 and Const 2 are 20 bytes with
   * SHA-256 too, as ipmitool and freeipmi make them (checked against both through the simulated
   * BMC, {@code SimIpmiFleetIT}).
   */
  static SessionKeys keys(CipherSuite suite, byte[] sik) {
    if (suite.rakpHmac() == null) {
      return SessionKeys.none(suite);
    }
    int n = 20;
    byte[] one = new byte[n];
    Arrays.fill(one, (byte) 1);
    byte[] two = new byte[n];
    Arrays.fill(two, (byte) 2);
    return new SessionKeys(
        suite, Bytes.hmac(suite.rakpHmac(), sik, one), Bytes.hmac(suite.rakpHmac(), sik, two));
  }

  /** RAKP Message 4 in {@code p}, empty when too short. */
  static Optional<Rakp4> rakp4(byte[] p, CipherSuite suite) {
    if (p.length < 2 || p.length < 8 && p[1] == 0) {
      return Optional.empty();
    }
    int status = Bytes.u8(p, 1);
    if (p.length < 8) {
      return Optional.of(new Rakp4(Bytes.u8(p, 0), status, 0, new byte[0]));
    }
    int length = status == 0 ? suite.rakp4Length() : 0;
    if (p.length < 8 + length) {
      return Optional.empty();
    }
    return Optional.of(
        new Rakp4(Bytes.u8(p, 0), status, Bytes.le32(p, 4), Arrays.copyOfRange(p, 8, 8 + length)));
  }

  /** RAKP 4's integrity check value: HMAC_SIK(Rm, SIDc, GUIDc), truncated to 12 or 16 bytes. */
  static byte[] rakp4Check(
      CipherSuite suite, byte[] sik, byte[] consoleRandom, int bmcSessionId, byte[] bmcGuid) {
    if (suite.rakpHmac() == null) {
      return new byte[0];
    }
    return Arrays.copyOf(
        Bytes.hmac(suite.rakpHmac(), sik, consoleRandom, Bytes.le32(bmcSessionId), bmcGuid),
        suite.rakp4Length());
  }
}
