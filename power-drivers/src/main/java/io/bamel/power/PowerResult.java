package io.bamel.power;

import java.util.ArrayList;
import java.util.List;

/**
 * What a power action actually sent to the BMC, for the caller's event or log line. Drivers that
 * report fill it in; the others answer {@link #unreported()}.
 *
 * <p>{@link #sent()} holds the requests in the order they went out, in the interface's own terms:
 * the Redfish {@code ResetType} values (such as {@code GracefulShutdown}, then {@code ForceOff}),
 * the Redfish boot override as {@code Boot Pxe Once UEFI}, the IPMI {@code chassis power} verbs
 * ({@code soft}, {@code off}). It is empty when nothing had to be sent (the system was already in
 * the state asked for).
 *
 * @param sent the requests sent, in order (empty: nothing was needed)
 * @param forced whether the power was cut without the operating system's consent although a
 *     graceful off was asked for (the system was still on after the graceful timeout)
 * @param notes what the caller should know: a fallback taken (a persistent boot override set for
 *     the next boot only), a reset type chosen in place of another
 * @param reported whether the driver reports at all ({@code false}: the other fields say nothing)
 */
public record PowerResult(List<String> sent, boolean forced, List<String> notes, boolean reported) {

  private static final PowerResult UNREPORTED = new PowerResult(List.of(), false, List.of(), false);

  /** Copies the lists. */
  public PowerResult {
    sent = List.copyOf(sent);
    notes = List.copyOf(notes);
  }

  /** The result of a driver that does not report what it sent. */
  public static PowerResult unreported() {
    return UNREPORTED;
  }

  /** One line for an event: {@code sent GracefulShutdown, ForceOff (forced); note}. */
  public String summary() {
    if (!reported) {
      return "";
    }
    StringBuilder line =
        new StringBuilder(sent.isEmpty() ? "nothing sent" : "sent " + String.join(", ", sent));
    if (forced) {
      line.append(" (forced)");
    }
    for (String note : notes) {
      line.append("; ").append(note);
    }
    return line.toString();
  }

  /** Collects a {@link PowerResult} while an action runs. Not thread-safe. */
  public static final class Builder {
    private final List<String> sent = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private boolean forced;

    /** Records a request sent. */
    public Builder sent(String request) {
      sent.add(request);
      return this;
    }

    /** Records a note. */
    public Builder note(String note) {
      notes.add(note);
      return this;
    }

    /** Records that the power was cut after a graceful off did not end in time. */
    public Builder forced() {
      forced = true;
      return this;
    }

    /** The result. */
    public PowerResult build() {
      return new PowerResult(sent, forced, notes, true);
    }
  }
}
