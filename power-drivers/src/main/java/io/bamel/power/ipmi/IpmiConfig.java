package io.bamel.power.ipmi;

import java.time.Duration;
import java.util.function.Consumer;
import org.immutables.value.Value;

/**
 * Settings of the IPMI driver; the cipher suite and privilege level can be overridden per node with
 * the endpoint options {@link IpmiDriver#OPTION_CIPHER_SUITE} and {@link
 * IpmiDriver#OPTION_PRIVILEGE}.
 *
 * @param ipmitool the {@code ipmitool} executable
 * @param cipherSuite the RMCP+ cipher suite ({@code -C}), 3 by default
 * @param privilege the privilege level ({@code -L}), {@code ADMINISTRATOR} by default
 * @param retransmitTimeout ipmitool's per-packet timeout ({@code -N}, whole seconds, at least 1)
 * @param retries ipmitool's retransmissions ({@code -R})
 * @param commandTimeout the longest one ipmitool run may take before it is killed
 * @param minInterval the least time between two commands to the same BMC
 * @param gracefulTimeout how long a soft power-off may take before a hard one
 * @param pollInterval how often to re-read the state while waiting for a change
 * @param implementation how BMCs are reached unless a node says otherwise: {@link
 *     IpmiImplementation#NATIVE} (bamel's RMCP+ client, the default) or {@link
 *     IpmiImplementation#IPMITOOL}
 * @param sessionIdle how long the native client keeps an idle session for the next command (BMCs
 *     close a session after 60 s of silence by default)
 */
@Value.Builder
public record IpmiConfig(
    String ipmitool,
    int cipherSuite,
    String privilege,
    Duration retransmitTimeout,
    int retries,
    Duration commandTimeout,
    Duration minInterval,
    Duration gracefulTimeout,
    Duration pollInterval,
    IpmiImplementation implementation,
    Duration sessionIdle) {

  /**
   * The native client (ipmitool on the PATH as the fallback), suite 3, admin, 1 s x 3, 20 s per
   * command, 200 ms apart, sessions kept 30 s.
   */
  public static IpmiConfig defaults() {
    return new IpmiConfig(
        "ipmitool",
        3,
        "ADMINISTRATOR",
        Duration.ofSeconds(1),
        3,
        Duration.ofSeconds(20),
        Duration.ofMillis(200),
        Duration.ofSeconds(120),
        Duration.ofSeconds(2),
        IpmiImplementation.NATIVE,
        Duration.ofSeconds(30));
  }

  /** With another per-command kill timeout. */
  public IpmiConfig withCommandTimeout(Duration timeout) {
    return with(b -> b.commandTimeout(timeout));
  }

  /** With another minimum interval between commands to one BMC. */
  public IpmiConfig withMinInterval(Duration interval) {
    return with(b -> b.minInterval(interval));
  }

  /** With other ipmitool retransmission settings. */
  public IpmiConfig withRetransmit(Duration timeout, int count) {
    return with(b -> b.retransmitTimeout(timeout).retries(count));
  }

  /** With other graceful-off timing. */
  public IpmiConfig withGraceful(Duration timeout, Duration poll) {
    return with(b -> b.gracefulTimeout(timeout).pollInterval(poll));
  }

  /** With another default implementation (a node's {@code ipmi.implementation} still wins). */
  public IpmiConfig withImplementation(IpmiImplementation chosen) {
    return with(b -> b.implementation(chosen));
  }

  /**
   * This config with the components {@code change} sets, through the generated {@link
   * IpmiConfigBuilder} (docs/architecture.md#generated-builders), checked again by the constructor:
   * a new component needs no change here.
   */
  private IpmiConfig with(Consumer<IpmiConfigBuilder> change) {
    IpmiConfigBuilder b = new IpmiConfigBuilder().from(this);
    change.accept(b);
    return b.build();
  }
}
