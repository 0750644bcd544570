package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.power.HardwareInfo;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When the controller inspects a node, what it stores, and how it compares with the DCIM. */
class InspectionTest {

  static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
  static final Instant T1 = T0.plusSeconds(60);

  static final NodeHardware HW =
      new NodeHardware(
          T0,
          "Dell Inc.",
          "PowerEdge R750",
          "SN-1",
          "1.10.2",
          new NodeHardware.Cpu("Xeon", 2),
          262144L,
          null,
          List.of("52:54:00:00:00:01"),
          null,
          null);

  static NodeStatus status(Instant requested, NodeHardware hardware) {
    return NodeStatus.builder()
        .state(NodeState.READY)
        .inspectRequestedAt(requested)
        .hardware(hardware)
        .build();
  }

  static Stream<Arguments> whenToInspect() {
    Inspection.Due first = Inspection.Due.FIRST_CONTACT;
    Inspection.Due asked = Inspection.Due.REQUESTED;
    Inspection.Due no = Inspection.Due.NO;
    return Stream.of(
        // name, status, BMC answered, interface can inspect, settled, expected
        Arguments.of("no status yet, BMC answered, settled", null, true, true, true, first),
        Arguments.of("no status yet, BMC silent", null, false, true, true, no),
        Arguments.of("never inspected, settled", status(null, null), true, true, true, first),
        Arguments.of(
            "never inspected, in a transition: waits", status(null, null), true, true, false, no),
        Arguments.of("never inspected, BMC unreachable", status(null, null), false, true, true, no),
        Arguments.of(
            "never inspected, interface cannot", status(null, null), true, false, true, no),
        Arguments.of("inspected, nothing asked", status(null, HW), true, true, true, no),
        Arguments.of("asked", status(T1, HW), true, true, true, asked),
        Arguments.of("asked, in a transition: at once", status(T1, HW), true, true, false, asked),
        Arguments.of("asked, never inspected", status(T1, null), true, true, true, asked),
        Arguments.of(
            "asked, interface said it cannot: tried so the request ends",
            status(T1, HW),
            true,
            false,
            true,
            asked),
        Arguments.of("asked, BMC unreachable: waits", status(T1, HW), false, true, true, no));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("whenToInspect")
  void decidesWhenToInspect(
      String name,
      NodeStatus status,
      boolean answered,
      boolean can,
      boolean settled,
      Inspection.Due expected) {
    assertThat(Inspection.due(status, answered, can, settled)).isEqualTo(expected);
  }

  @Test
  void storesTheFactsWithGpusCountedByModelAndMacsOnce() {
    HardwareInfo info =
        new HardwareInfo(
            "Dell Inc.",
            "PowerEdge R750",
            "SN-1",
            "uuid",
            "1.10.2",
            2,
            "Xeon",
            262144L,
            List.of(
                new HardwareInfo.Gpu("NVIDIA Corporation", "NVIDIA A100"),
                new HardwareInfo.Gpu("NVIDIA Corporation", "NVIDIA A100"),
                new HardwareInfo.Gpu("AMD", "MI210")),
            List.of("52:54:00:00:00:01", "52-54-00-00-00-01", "52:54:00:00:00:02"));

    NodeHardware hw = Inspection.hardware(info, T0);

    assertThat(hw.inspectedAt()).isEqualTo(T0);
    assertThat(hw.vendor()).isEqualTo("Dell Inc.");
    assertThat(hw.cpu()).isEqualTo(new NodeHardware.Cpu("Xeon", 2));
    assertThat(hw.memoryMiB()).isEqualTo(262144L);
    assertThat(hw.gpus())
        .containsExactly(new NodeHardware.Gpu("NVIDIA A100", 2), new NodeHardware.Gpu("MI210", 1));
    assertThat(hw.macs()).containsExactly("52:54:00:00:00:01", "52:54:00:00:00:02");
    assertThat(hw.error()).isNull();
  }

  @Test
  void anInspectionClearsTheRequestAndAFailureKeepsThePreviousFacts() {
    NodeStatus asked = status(T1, HW);
    NodeHardware fresh = HW.at(T1, null);

    NodeStatus done = Inspection.inspected(asked, fresh, null, T1);
    assertThat(done.inspectRequestedAt()).isNull();
    assertThat(done.hardware()).isEqualTo(fresh);

    NodeStatus failed = Inspection.inspected(asked, null, "BAD_CREDENTIALS: refused", T1);
    assertThat(failed.inspectRequestedAt()).isNull();
    assertThat(failed.hardware().inspectedAt()).isEqualTo(T1);
    assertThat(failed.hardware().error()).isEqualTo("BAD_CREDENTIALS: refused");
    assertThat(failed.hardware().sameFacts(HW)).isTrue();
  }

  static Stream<Arguments> mismatches() {
    return Stream.of(
        Arguments.of("same serial", "SN-1", null, "False", null),
        Arguments.of("serial differs only in case and spaces", " sn-1 ", null, "False", null),
        Arguments.of("no serial in DCIM", null, null, "False", null),
        Arguments.of(
            "serial differs",
            "DCIM-9",
            null,
            "True",
            "serial differs from DCIM: inventory DCIM-9, BMC SN-1"),
        Arguments.of("MAC among the NICs", "SN-1", "52:54:00:00:00:01", "False", null),
        Arguments.of(
            "MAC not among the NICs",
            "SN-1",
            "52:54:00:00:00:09",
            "True",
            "macAddress not among the BMC's NICs: inventory 52:54:00:00:00:09,"
                + " BMC 52:54:00:00:00:01"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mismatches")
  void showsADifferenceFromTheDcimAsACondition(
      String name, String serial, String mac, String expected, String message) {
    NodeSpec spec = NodeSpec.builder().serial(serial).macAddress(mac).build();

    NodeStatus out = Inspection.withConditions(spec, status(null, HW), T1);

    assertThat(out.conditions()).hasSize(1);
    NodeCondition c = out.conditions().get(0);
    assertThat(c.type()).isEqualTo(NodeCondition.HARDWARE_MISMATCH);
    assertThat(c.status()).isEqualTo(expected);
    assertThat(c.message()).isEqualTo(message);
    assertThat(c.lastTransitionTime()).isEqualTo(T1);
    assertThat(spec.serial()).as("the DCIM's field is never changed").isEqualTo(serial);
  }

  @Test
  void theConditionIsAbsentBeforeInspectionAndKeepsItsTimeUntilItFlips() {
    NodeSpec differs = NodeSpec.builder().serial("DCIM-9").build();
    NodeStatus none = status(null, null);
    assertThat(Inspection.withConditions(differs, none, T0)).isSameAs(none);

    NodeStatus flagged = Inspection.withConditions(differs, status(null, HW), T0);
    assertThat(Inspection.withConditions(differs, flagged, T1))
        .as("unchanged: the same status, so nothing is written")
        .isSameAs(flagged);

    NodeStatus fixed =
        Inspection.withConditions(NodeSpec.builder().serial("SN-1").build(), flagged, T1);
    assertThat(fixed.conditions().get(0).status()).isEqualTo("False");
    assertThat(fixed.conditions().get(0).lastTransitionTime()).isEqualTo(T1);
  }
}
