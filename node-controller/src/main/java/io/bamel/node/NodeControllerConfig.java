package io.bamel.node;

import io.bamel.inventory.model.NodeTimeouts;
import java.time.Duration;
import java.util.function.Consumer;
import org.immutables.value.Value;

/**
 * Settings of the {@link NodeController}.
 *
 * @param workers how many nodes are reconciled at once (256), each on a virtual thread, so a worker
 *     waiting for a BMC, Kubernetes or etcd costs no platform thread. A reconciliation makes its
 *     BMC calls one at a time, so at most {@code min(workers, bmcConcurrency)} BMC calls run at
 *     once: keep {@code workers >= bmcConcurrency}, or the BMC limit is never reached (the rest of
 *     the workers overlap Kubernetes and etcd work with the BMC calls)
 * @param bmcConcurrency how many BMC calls may run at once across all nodes (64): the bound of BMC
 *     traffic, a semaphore held for the length of each call (not a thread pool). A Redfish or
 *     Proxmox call holds one HTTPS exchange; an IPMI call runs one {@code ipmitool} process (the
 *     driver runs one command per BMC at a time, its diagnostic re-run after the first), so this is
 *     also the budget of {@code ipmitool} processes: at most {@code bmcConcurrency} at once, each a
 *     few MiB of memory and two pipes read by two virtual threads. Size it to what the BMC network
 *     and the host's process and file-descriptor limits allow; a pass over {@code n} powered nodes
 *     whose BMCs answer in {@code t} takes about {@code n * t / bmcConcurrency}
 * @param syncInterval how often every node's power state is read (60 s), jittered by {@code
 *     syncJitter}; one BMC read per node per pass, plus the power draw where it is due ({@code
 *     readingsInterval})
 * @param syncJitter the fraction by which each sync period varies, 0 to 1 (0.1)
 * @param pollInterval how soon a node in a transitional state is looked at again (5 s)
 * @param backoffBase the first retry delay after a failure (1 s), doubled per failure
 * @param backoffMax the longest retry delay (5 min)
 * @param bmcCallTimeout the deadline of one BMC call (a graceful power-off waits this long) (150 s)
 * @param timeouts the global step timeouts; each pool may override them (5/20/10/5 min)
 * @param shutdownTimeout how long {@link NodeController#close()} waits for reconciliations in
 *     progress (a power action under way) to finish before it interrupts them (20 s); zero
 *     interrupts at once
 * @param readings when a power reading read at a sync is written to etcd, compared with the one
 *     stored ({@link ReadingsPolicy#DEFAULTS}: beyond 5 % and 10 W, or older than an hour); the
 *     {@code bamel_node_power_watts} gauge always has the latest
 * @param readingsInterval how often a powered-on node's power draw is read, at the first sync after
 *     it is due (10 min); zero: at every sync. A draw read is a second BMC call, so with the
 *     defaults a pass makes {@code 1 + 60 s / 10 min = 1.1} calls per powered node on average
 *     instead of 2
 */
@Value.Builder
public record NodeControllerConfig(
    int workers,
    int bmcConcurrency,
    Duration syncInterval,
    double syncJitter,
    Duration pollInterval,
    Duration backoffBase,
    Duration backoffMax,
    Duration bmcCallTimeout,
    NodeTimeouts timeouts,
    Duration shutdownTimeout,
    ReadingsPolicy readings,
    Duration readingsInterval) {

  /** The defaults listed above. */
  public static final NodeControllerConfig DEFAULTS =
      new NodeControllerConfig(
          256,
          64,
          Duration.ofSeconds(60),
          0.1,
          Duration.ofSeconds(5),
          Duration.ofSeconds(1),
          Duration.ofMinutes(5),
          Duration.ofSeconds(150),
          NodeTimeouts.DEFAULTS,
          Duration.ofSeconds(20),
          ReadingsPolicy.DEFAULTS,
          Duration.ofMinutes(10));

  /** Checks the values. */
  public NodeControllerConfig {
    if (workers < 1 || bmcConcurrency < 1) {
      throw new IllegalArgumentException("workers and bmcConcurrency must be at least 1");
    }
    if (syncJitter < 0 || syncJitter > 1) {
      throw new IllegalArgumentException("syncJitter must be between 0 and 1");
    }
    timeouts = timeouts == null ? NodeTimeouts.DEFAULTS : timeouts.orElse(NodeTimeouts.DEFAULTS);
    if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
      throw new IllegalArgumentException("shutdownTimeout must be zero or positive");
    }
    if (readings == null) {
      throw new IllegalArgumentException("readings must be set");
    }
    if (readingsInterval == null || readingsInterval.isNegative()) {
      throw new IllegalArgumentException("readingsInterval must be zero or positive");
    }
  }

  /** With other worker and BMC concurrency limits. */
  public NodeControllerConfig withConcurrency(int workers, int bmcConcurrency) {
    return with(b -> b.workers(workers).bmcConcurrency(bmcConcurrency));
  }

  /** With other sync and poll intervals. */
  public NodeControllerConfig withIntervals(Duration sync, Duration poll) {
    return with(b -> b.syncInterval(sync).pollInterval(poll));
  }

  /** With another retry backoff. */
  public NodeControllerConfig withBackoff(Duration base, Duration max) {
    return with(b -> b.backoffBase(base).backoffMax(max));
  }

  /** With another BMC call deadline. */
  public NodeControllerConfig withBmcCallTimeout(Duration timeout) {
    return with(b -> b.bmcCallTimeout(timeout));
  }

  /** With other global step timeouts. */
  public NodeControllerConfig withTimeouts(NodeTimeouts global) {
    return with(b -> b.timeouts(global));
  }

  /** With another bound on the wait for work in progress at {@link NodeController#close()}. */
  public NodeControllerConfig withShutdownTimeout(Duration timeout) {
    return with(b -> b.shutdownTimeout(timeout));
  }

  /** With another rule for writing power readings to etcd. */
  public NodeControllerConfig withReadingsPolicy(ReadingsPolicy policy) {
    return with(b -> b.readings(policy));
  }

  /** With another interval between power draw reads of a node (zero: at every sync). */
  public NodeControllerConfig withReadingsInterval(Duration interval) {
    return with(b -> b.readingsInterval(interval));
  }

  /**
   * This config with the components {@code change} sets, through the generated {@link
   * NodeControllerConfigBuilder} (docs/architecture.md#generated-builders), checked again by the
   * constructor: a new component needs no change here.
   */
  private NodeControllerConfig with(Consumer<NodeControllerConfigBuilder> change) {
    NodeControllerConfigBuilder b = new NodeControllerConfigBuilder().from(this);
    change.accept(b);
    return b.build();
  }
}
