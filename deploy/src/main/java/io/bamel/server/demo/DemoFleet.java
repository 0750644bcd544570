package io.bamel.server.demo;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.ResourceCapacity;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's fleet: 24 servers in three racks, 16 in pool {@code general} (32 cores, 128 GiB) and 8
 * in pool {@code gpu} (32 cores, 256 GiB, 4 GPUs), the pools' configs tuned so that a person sees
 * scale-ups and scale-downs within two minutes, and the synthetic load of each pool.
 */
public final class DemoFleet {

  /** The general pool. */
  public static final String GENERAL = "general";

  /** The GPU pool. */
  public static final String GPU = "gpu";

  /** The credential name of the simulated BMCs. */
  public static final String CREDENTIALS = "demo-bmc";

  private DemoFleet() {}

  /** One server of the demo. */
  public record Server(String id, String pool, String rack, boolean gpu) {

    /** Its allocatable resources in Kubernetes units. */
    public Map<String, BigDecimal> allocatable() {
      return gpu
          ? Map.of("cpu", BigDecimal.valueOf(32), "memory", gib(256), "gpu", BigDecimal.valueOf(4))
          : Map.of("cpu", BigDecimal.valueOf(32), "memory", gib(128));
    }
  }

  /** The 24 servers: racks r1..r3, eight slots each. */
  public static List<Server> servers() {
    List<Server> all = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      String rack = "r" + (i % 3 + 1);
      boolean gpu = i >= 16;
      String id = String.format(Locale.ROOT, "%s-%s-%02d", rack, gpu ? "gpu" : "cpu", i + 1);
      all.add(new Server(id, gpu ? GPU : GENERAL, rack, gpu));
    }
    return all;
  }

  /** The inventory record of a server whose BMC answers at {@code address}. */
  public static NodeSpec spec(Server s, String address, int index) {
    return NodeSpec.builder()
        .name(s.id())
        .inventoryId("demo-" + (1000 + index))
        .serial(String.format(Locale.ROOT, "DEMO%05d", index))
        .site("demo-dc")
        .rack(s.rack())
        .rackPosition(index / 3 + 1)
        .pool(s.pool())
        .mgmtAddress(address)
        .macAddress(String.format(Locale.ROOT, "02:00:00:00:00:%02x", index + 1))
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials(CREDENTIALS)
        .resources(
            s.gpu()
                ? ResourceCapacity.of("32", "256Gi", "4")
                : ResourceCapacity.of("32", "128Gi", null))
        .desiredPower(DesiredPower.OFF)
        .idlePowerWatts(s.gpu() ? 180.0 : 110.0)
        .build();
  }

  /**
   * The pools' configs with the windows, cooldown and node timeouts of {@code timeline} (the
   * standard one's are short, so that the demo moves within minutes).
   */
  public static Map<String, PoolConfig> pools(DemoTimeline timeline) {
    NodeTimeouts timeouts = timeline.timeouts();
    PoolConfig general =
        PoolConfig.builder()
            .minNodes(2)
            .maxNodes(16)
            .scaleUpThreshold(0.75)
            .scaleDownThreshold(0.40)
            .scaleDownUnneededTime(timeline.scaleDownUnneededTime())
            .delayAfterScaleUp(timeline.delayAfterScaleUp())
            .scaleUpCooldown(timeline.scaleUpCooldown())
            .maxConcurrentTransitions(4)
            .resources(List.of("cpu", "memory"))
            .labels(Map.of("bamel.io/tier", "general"))
            .timeouts(timeouts)
            .build();
    PoolConfig gpu =
        PoolConfig.builder()
            .minNodes(0)
            .maxNodes(8)
            .scaleUpThreshold(0.75)
            .scaleDownThreshold(0.40)
            .scaleDownUnneededTime(timeline.scaleDownUnneededTime())
            .delayAfterScaleUp(timeline.delayAfterScaleUp())
            .scaleUpCooldown(timeline.scaleUpCooldown())
            .maxConcurrentTransitions(3)
            .resources(List.of("cpu", "gpu"))
            .labels(Map.of("bamel.io/tier", "gpu"))
            .timeouts(timeouts)
            .build();
    return Map.of(GENERAL, general, GPU, gpu);
  }

  /** The synthetic load: general 8-core pods from 4 to 36, GPU 1-GPU pods from 0 to 10. */
  public static List<LoadProfile> load(Duration period) {
    return List.of(
        new LoadProfile(
            GENERAL, 4, 36, period, Map.of("cpu", BigDecimal.valueOf(8), "memory", gib(16))),
        new LoadProfile(
            GPU,
            0,
            10,
            period.plus(period.dividedBy(4)),
            Map.of("cpu", BigDecimal.valueOf(4), "gpu", BigDecimal.ONE)));
  }

  private static BigDecimal gib(long n) {
    return BigDecimal.valueOf(n).multiply(BigDecimal.valueOf(1L << 30));
  }
}
