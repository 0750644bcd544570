package io.bamel.power.ipmi.rmcp;

import io.bamel.power.PowerException;
import io.bamel.power.TransientPowerException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One request and its answer over a {@link RmcpTransport}: sends, waits for a datagram the {@code
 * match} function accepts (dropping the others: late answers to an earlier attempt, duplicates,
 * forgeries), and sends again after each retransmission timeout, until the attempts or the deadline
 * run out. Never waits past {@code deadlineNanos}.
 */
final class Exchange {

  private Exchange() {}

  /**
   * The first accepted answer.
   *
   * @param packet the datagram of each attempt (a new session sequence number each time)
   * @param deadlineNanos the {@link System#nanoTime()} by which to give up
   * @throws TransientPowerException {@link PowerException.Reason#UNREACHABLE} when nothing
   *     acceptable came back
   */
  static <T> T run(
      RmcpTransport transport,
      RmcpTransport.Mailbox mailbox,
      Supplier<byte[]> packet,
      Function<byte[], Optional<T>> match,
      Retransmission retransmission,
      long deadlineNanos,
      String what)
      throws PowerException {
    long timeout = retransmission.timeout().toNanos();
    int attempts = 0;
    try {
      while (attempts < retransmission.attempts() && System.nanoTime() < deadlineNanos) {
        attempts++;
        transport.send(packet.get(), mailbox.bmc);
        long until = Math.min(deadlineNanos, System.nanoTime() + timeout);
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
          byte[] datagram = mailbox.poll(left);
          if (datagram == null) {
            break;
          }
          Optional<T> answer = match.apply(datagram);
          if (answer.isPresent()) {
            return answer.get();
          }
        }
      }
    } catch (IOException e) {
      throw new TransientPowerException(
          PowerException.Reason.UNREACHABLE,
          what + " to " + describe(mailbox) + ": " + e.getMessage(),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, what + ": interrupted", e);
    }
    throw new TransientPowerException(
        System.nanoTime() >= deadlineNanos && attempts < retransmission.attempts()
            ? PowerException.Reason.TIMEOUT
            : PowerException.Reason.UNREACHABLE,
        "no answer to "
            + what
            + " from the BMC at "
            + describe(mailbox)
            + " after "
            + attempts
            + (attempts == 1 ? " try" : " tries")
            + " of "
            + Duration.ofNanos(timeout).toMillis()
            + " ms");
  }

  static String describe(RmcpTransport.Mailbox mailbox) {
    return mailbox.bmc.getAddress().getHostAddress() + ":" + mailbox.bmc.getPort();
  }
}
