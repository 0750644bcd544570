package io.bamel.power.sim.ipmi;

/**
 * One RMCP+ session of a simulated BMC, from Open Session to Close Session or its inactivity
 * timeout: the two session IDs, the cipher suite, the RAKP exchange's values, the derived keys once
 * RAKP 3 checked out, the privilege levels and the sequence numbers. Used by one thread only.
 */
final class SimSession {

  enum State {
    OPENED,
    RAKP2_SENT,
    ACTIVE
  }

  final int managedId;
  final int consoleId;
  final SimCipherSuite suite;
  final int openPrivilege;
  State state = State.OPENED;
  long lastActivityNanos;

  byte[] consoleRandom;
  byte[] bmcRandom;
  int role;
  byte[] userName;
  SimIpmiUser user;

  byte[] k1;
  byte[] k2;
  int maxPrivilege;
  int privilege;
  int outboundSequence;

  private boolean anyInbound;
  private int highestInbound;
  private int seenBelow; // bit n: highestInbound - n was received

  SimSession(int managedId, int consoleId, SimCipherSuite suite, int openPrivilege, long now) {
    this.managedId = managedId;
    this.consoleId = consoleId;
    this.suite = suite;
    this.openPrivilege = openPrivilege;
    this.lastActivityNanos = now;
  }

  /**
   * Accepts an inbound session sequence number once, within the sliding window the IPMI v2.0
   * specification describes for RMCP+ (up to 16 ahead of the highest received, or one of the 16
   * below it not yet received); 0 is never valid in an authenticated session.
   */
  boolean acceptSequence(int sequence) {
    if (sequence == 0) {
      return false;
    }
    if (!anyInbound) {
      anyInbound = true;
      highestInbound = sequence;
      seenBelow = 1;
      return true;
    }
    int ahead = sequence - highestInbound;
    if (ahead > 0 && ahead <= 16) {
      seenBelow = (seenBelow << ahead) | 1;
      highestInbound = sequence;
      return true;
    }
    if (ahead <= 0 && ahead > -16) {
      int bit = 1 << -ahead;
      if ((seenBelow & bit) != 0) {
        return false;
      }
      seenBelow |= bit;
      return true;
    }
    return false;
  }

  /** The next outbound session sequence number (never 0). */
  int nextOutbound() {
    outboundSequence++;
    if (outboundSequence == 0) {
      outboundSequence = 1;
    }
    return outboundSequence;
  }
}
