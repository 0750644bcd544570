package io.bamel.bench.endurance;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.node.KubeView;
import io.bamel.power.PowerState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One simulated machine on the simulated clock: its BMC's power state, its operating system booting
 * and shutting down, its Kubernetes node (cordoned or not, Ready once booted) and the pods running
 * on it, and the watts its BMC reports. Every machine has joined Kubernetes before, so its node
 * object exists (NotReady while the machine is off). Not thread-safe: one thread at a time.
 */
final class Machine {

  /** How long a graceful shutdown takes before the BMC reports off. */
  static final Duration SHUTDOWN = Duration.ofSeconds(70);

  /** How long evicted pods take to go. */
  static final Duration EVICTION = Duration.ofSeconds(30);

  private static final Map<String, BigDecimal> ALLOCATABLE =
      Map.of(
          "cpu", BigDecimal.valueOf(64),
          "memory", BigDecimal.valueOf(512L << 30),
          "pods", BigDecimal.valueOf(110));

  private final String name;
  private final SplittableRandom random;
  private final List<KubePod> workloads;
  private final Map<String, String> labels = new HashMap<>();
  private boolean on;
  private Instant bootedAt;
  private Instant offAt;
  private boolean cordoned;
  private boolean podsRunning;
  private Instant podsGoneAt;
  private double jobFactor = 1.0;
  private long version;

  /** A machine named {@code name} (its Kubernetes node name), on or off. */
  Machine(String name, boolean on, SplittableRandom random) {
    this.name = name;
    this.random = random;
    this.on = on;
    this.bootedAt = on ? Instant.EPOCH : null;
    this.podsRunning = on;
    this.cordoned = !on; // a machine switched off was drained first
    this.workloads =
        List.of(pod("job-" + name + "-a"), pod("job-" + name + "-b"), pod("job-" + name + "-c"));
  }

  private KubePod pod(String podName) {
    return new KubePod(
        new PodRef("batch", podName),
        name,
        "Running",
        Map.of("cpu", BigDecimal.valueOf(16)),
        Boolean.TRUE,
        null,
        "ReplicaSet",
        Map.of(),
        Map.of(),
        Map.of(),
        null,
        null);
  }

  /** Lets time pass until {@code now}: a shutdown under way ends, evicted pods go. */
  void advance(Instant now) {
    if (offAt != null && !offAt.isAfter(now)) {
      on = false;
      offAt = null;
      bootedAt = null;
      version++;
    }
    if (podsGoneAt != null && !podsGoneAt.isAfter(now)) {
      podsRunning = false;
      podsGoneAt = null;
      version++;
    }
  }

  /**
   * A number that changes whenever what the BMC or Kubernetes show changes, except for the node
   * turning Ready once booted (see {@link #ready}).
   */
  long version() {
    return version;
  }

  /** Whether the Kubernetes node is Ready at {@code now}. */
  boolean ready(Instant now) {
    return on && offAt == null && bootedAt != null && !bootedAt.isAfter(now);
  }

  /** What the BMC reports. */
  PowerState power() {
    return on ? PowerState.ON : PowerState.OFF;
  }

  /** What Kubernetes shows; the pods only when {@code withPods}. */
  KubeView kube(Instant now, boolean withPods) {
    KubeNode node = new KubeNode(name, ready(now), cordoned, labels, Map.of(), ALLOCATABLE);
    return KubeView.present(node, withPods && podsRunning ? workloads : List.of(), Map.of());
  }

  /** The BMC switches on; the OS is booted (the node Ready) two to five minutes later. */
  void powerOn(Instant now) {
    on = true;
    offAt = null;
    bootedAt = now.plusSeconds(120 + random.nextInt(180));
    version++;
  }

  /** A graceful shutdown ({@code force}: at once). */
  void powerOff(Instant now, boolean force) {
    if (on) {
      offAt = force ? now : now.plus(SHUTDOWN);
      version++;
    }
  }

  /** Cordons the node and evicts its pods. */
  void drain(Instant now) {
    cordoned = true;
    if (podsRunning && podsGoneAt == null) {
      podsGoneAt = now.plus(EVICTION);
    }
    version++;
  }

  /** Labels the node; {@code uncordon}: also uncordons it, and the scheduler places pods on it. */
  void label(Map<String, String> add, boolean uncordon) {
    labels.putAll(add);
    if (uncordon) {
      cordoned = false;
    }
    if (!cordoned) {
      podsRunning = true;
      podsGoneAt = null;
    }
    version++;
  }

  /**
   * The watts the BMC reports at a pool utilization of {@code utilization}: 180 W idle to 500 W
   * busy as the node's share of the work (its jobs change about every 30 minutes), 260 W while
   * booting, with 1 % of noise.
   */
  double watts(Instant now, double utilization) {
    if (random.nextInt(30) == 0) {
      jobFactor = random.nextDouble(0.5, 1.4);
    }
    double base;
    if (bootedAt == null || bootedAt.isAfter(now)) {
      base = 260;
    } else {
      double busy = Math.max(0, Math.min(1, utilization * jobFactor));
      base = 180 + 320 * busy;
    }
    return Math.round(base * (1 + 0.01 * random.nextGaussian()) * 10) / 10.0;
  }
}
