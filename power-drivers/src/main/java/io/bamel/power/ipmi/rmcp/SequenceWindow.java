package io.bamel.power.ipmi.rmcp;

/**
 * The session sequence numbers a session accepts from its BMC (IPMI v2.0 section 6.12.13): never 0,
 * never one already seen, never more than {@link #WIDTH} below the highest seen. A replayed or
 * duplicated packet is so refused. Not thread-safe (its session serialises calls). Pure.
 */
final class SequenceWindow {

  /** How far below the highest sequence number a late packet is still taken. */
  static final int WIDTH = 16;

  private boolean any;
  private int highest;
  private long seen; // bit i: highest - i was seen

  /** Whether {@code sequence} is new and within the window; if so, it is recorded. */
  boolean accept(int sequence) {
    if (sequence == 0) {
      return false;
    }
    if (!any) {
      any = true;
      highest = sequence;
      seen = 1;
      return true;
    }
    int ahead = sequence - highest; // wraps like the 32-bit counter
    if (ahead > 0) {
      seen = ahead >= 64 ? 1 : seen << ahead | 1;
      highest = sequence;
      return true;
    }
    int behind = -ahead;
    if (behind >= WIDTH || (seen >>> behind & 1) != 0) {
      return false;
    }
    seen |= 1L << behind;
    return true;
  }
}
