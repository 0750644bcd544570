package io.bamel.node;

import io.bamel.inventory.model.MacAddress;
import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.power.HardwareInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When the node controller inspects a node's hardware through its BMC, what it stores, and how the
 * result is compared with the DCIM-owned spec. Pure: no I/O, no clock.
 *
 * <p>A node is inspected when its BMC answered the power read of this reconciliation and either an
 * inspection was asked for ({@code status.inspectRequestedAt} set by the API) or it was never
 * inspected ({@code status.hardware} absent), its interface can inspect at all and the node is
 * settled (the state machine has nothing to do and nothing to record: a first-contact inspection
 * never competes with a power-on or a transition for the BMC permits). A node is also inspected,
 * whatever its step, when its Kubernetes node was refused for want of an identity and no system
 * UUID is stored ({@link Due#IDENTITY}: a node inspected before bamel stored UUIDs, or one switched
 * on before its first inspection); the reconciler asks that at most once per node and process.
 * Nothing else inspects: a periodic sync of an inspected node reads nothing more and writes
 * nothing.
 */
final class Inspection {

  /** Why a node is inspected now. */
  enum Due {
    /** Not now. */
    NO,
    /** Never inspected: first contact with its BMC. */
    FIRST_CONTACT,
    /** Asked for through the API. */
    REQUESTED,
    /** Its Kubernetes node cannot be proven to be this machine without a system UUID. */
    IDENTITY
  }

  private Inspection() {}

  /**
   * Whether to inspect now: {@code status} the node's stored status (null: none yet), {@code
   * bmcAnswered} whether the BMC answered this reconciliation's power read, {@code canInspect}
   * whether the node's power interface can inspect, {@code settled} whether the state machine's
   * decision is to do nothing, record nothing and wait for the next sync, {@code identityUnknown}
   * whether its Kubernetes node was refused for want of a stored system UUID (and that inspection
   * was not tried yet).
   */
  static Due due(
      NodeStatus status,
      boolean bmcAnswered,
      boolean canInspect,
      boolean settled,
      boolean identityUnknown) {
    if (!bmcAnswered) {
      return Due.NO;
    }
    if (status != null && status.inspectRequestedAt() != null) {
      return Due.REQUESTED;
    }
    if (canInspect && settled && (status == null || status.hardware() == null)) {
      return Due.FIRST_CONTACT;
    }
    if (canInspect && identityUnknown) {
      return Due.IDENTITY;
    }
    return Due.NO;
  }

  /** {@link #due} for a node whose Kubernetes identity is not in question. */
  static Due due(NodeStatus status, boolean bmcAnswered, boolean canInspect, boolean settled) {
    return due(status, bmcAnswered, canInspect, settled, false);
  }

  /** What the BMC told, as stored at {@code status.hardware}, inspected at {@code now}. */
  static NodeHardware hardware(HardwareInfo info, Instant now) {
    Map<String, Integer> gpus = new LinkedHashMap<>();
    for (HardwareInfo.Gpu gpu : info.gpus()) {
      gpus.merge(gpuName(gpu), 1, Integer::sum);
    }
    List<NodeHardware.Gpu> byModel = new ArrayList<>();
    gpus.forEach((model, count) -> byModel.add(new NodeHardware.Gpu(model, count)));
    NodeHardware.Cpu cpu =
        info.cpuModel() == null && info.cpuCount() == null
            ? null
            : new NodeHardware.Cpu(info.cpuModel(), info.cpuCount());
    List<String> macs =
        info.macAddresses().stream()
            .filter(MacAddress::isValid)
            .map(MacAddress::canonical)
            .distinct()
            .toList();
    return new NodeHardware(
        now,
        info.manufacturer(),
        info.model(),
        info.serial(),
        SystemUuid.canonical(info.uuid()),
        info.biosVersion(),
        cpu,
        info.memoryMiB(),
        byModel,
        macs,
        null,
        null);
  }

  /**
   * The status after an inspection that found {@code found} (or failed for good with {@code error}:
   * then {@code found} is null and the previous facts stay) at {@code now}: the request marker
   * cleared, the hardware stored.
   */
  static NodeStatus inspected(NodeStatus status, NodeHardware found, String error, Instant now) {
    NodeStatus current = status == null ? NodeStatus.initial(now) : status;
    NodeHardware previous = current.hardware();
    NodeHardware hardware =
        found != null
            ? found
            : previous != null
                ? previous.at(now, error)
                : new NodeHardware(
                    now, null, null, null, null, null, null, null, null, error, null);
    return current.toBuilder().inspectRequestedAt(null).hardware(hardware).build();
  }

  /**
   * {@code status} with its {@link NodeCondition#HARDWARE_MISMATCH} condition brought up to date
   * with {@code spec} at {@code now}: absent while nothing was inspected, {@code True} while an
   * inspected fact differs from a DCIM-owned spec field (serial, MAC address), {@code False}
   * otherwise. Its transition time moves only when its status flips; other conditions stay. Returns
   * {@code status} itself when nothing changes.
   */
  static NodeStatus withConditions(NodeSpec spec, NodeStatus status, Instant now) {
    if (status == null) {
      return null;
    }
    List<NodeCondition> current = status.conditions() == null ? List.of() : status.conditions();
    NodeCondition before =
        current.stream()
            .filter(c -> NodeCondition.HARDWARE_MISMATCH.equals(c.type()))
            .findFirst()
            .orElse(null);
    NodeCondition after = mismatch(spec, status.hardware(), before, now);
    if (java.util.Objects.equals(before, after)) {
      return status;
    }
    List<NodeCondition> next = new ArrayList<>();
    for (NodeCondition c : current) {
      if (!NodeCondition.HARDWARE_MISMATCH.equals(c.type())) {
        next.add(c);
      }
    }
    if (after != null) {
      next.add(after);
    }
    return status.toBuilder().conditions(next).build();
  }

  /** The mismatch condition for {@code hardware} against {@code spec}, given the one before. */
  static NodeCondition mismatch(
      NodeSpec spec, NodeHardware hardware, NodeCondition before, Instant now) {
    if (hardware == null || hardware.inspectedAt() == null) {
      return null;
    }
    List<String> differences = differences(spec, hardware);
    boolean mismatch = !differences.isEmpty();
    String status = mismatch ? "True" : "False";
    Instant since =
        before != null && status.equals(before.status()) ? before.lastTransitionTime() : now;
    Map<String, Object> kept = before == null ? null : before.extensions();
    return mismatch
        ? new NodeCondition(
            NodeCondition.HARDWARE_MISMATCH,
            status,
            "DiffersFromDcim",
            String.join("; ", differences),
            since,
            kept)
        : new NodeCondition(
            NodeCondition.HARDWARE_MISMATCH, status, "MatchesDcim", null, since, kept);
  }

  /** The DCIM-owned fields the BMC contradicts, one message each. */
  static List<String> differences(NodeSpec spec, NodeHardware hardware) {
    List<String> out = new ArrayList<>();
    if (spec.serial() != null
        && hardware.serial() != null
        && !norm(spec.serial()).equals(norm(hardware.serial()))) {
      out.add(
          "serial differs from DCIM: inventory "
              + spec.serial()
              + ", BMC "
              + hardware.serial().strip());
    }
    if (spec.macAddress() != null
        && hardware.macs() != null
        && MacAddress.isValid(spec.macAddress())
        && !hardware.macs().contains(MacAddress.canonical(spec.macAddress()))) {
      out.add(
          "macAddress not among the BMC's NICs: inventory "
              + MacAddress.canonical(spec.macAddress())
              + ", BMC "
              + String.join(" ", hardware.macs()));
    }
    return out;
  }

  private static String norm(String text) {
    return text.strip().toUpperCase(Locale.ROOT);
  }

  /** A GPU's model as the BMC names it (its manufacturer when it names no model). */
  private static String gpuName(HardwareInfo.Gpu gpu) {
    return gpu.model() != null ? gpu.model() : gpu.manufacturer();
  }
}
