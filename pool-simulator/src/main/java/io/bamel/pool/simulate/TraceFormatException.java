package io.bamel.pool.simulate;

/**
 * A trace CSV that cannot be read as written. The message names the line (1-based, the header is
 * line 1) and, where one is at fault, the column; nothing of the trace is returned.
 */
public final class TraceFormatException extends Exception {
  private final int line;

  public TraceFormatException(int line, String message) {
    super("line " + line + ": " + message);
    this.line = line;
  }

  /** The 1-based line at fault. */
  public int line() {
    return line;
  }
}
