package io.bamel.inventory.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.store.SpecIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sync planner as a pure function: items and current nodes in, actions out. */
class SyncPlannerTest {

  private static NodeSpec spec(String inventoryId, String serial, String address, String mac) {
    return NodeSpec.builder()
        .inventoryId(inventoryId)
        .serial(serial)
        .mgmtAddress(address)
        .macAddress(mac)
        .pool("a")
        .build();
  }

  private static Node node(String id, NodeSpec spec, ObservedPower observed) {
    NodeStatus status =
        observed == null
            ? null
            : NodeStatus.builder().state(NodeState.OFF).observedPower(observed).build();
    return new Node(id, spec, 10, status, status == null ? 0 : 11, null);
  }

  private static final List<Node> CURRENT =
      List.of(
          node("n1", spec("inv-1", "S1", "192.0.2.1", "00:00:00:00:00:01"), ObservedPower.OFF),
          node("n2", spec("inv-2", "S2", "192.0.2.2", "00:00:00:00:00:02"), ObservedPower.ON),
          node("n3", spec("inv-3", "S3", "192.0.2.3", "00:00:00:00:00:03"), null));

  private static final SyncPlanner.Rules RULES =
      new SyncPlanner.Rules("sync", true, java.util.Set.of());

  private static SyncPlan plan(List<SyncItem> items, boolean prune) {
    return SyncPlanner.plan(items, CURRENT, n -> "a".equals(n.spec().pool()), prune);
  }

  /** CURRENT and two nodes no record owns yet (no inventoryId): only they can be adopted. */
  private static final List<Node> WITH_UNOWNED =
      List.of(
          CURRENT.get(0),
          CURRENT.get(1),
          CURRENT.get(2),
          node("u1", spec(null, "SU", "192.0.2.51", "00:00:00:00:00:51"), null),
          node("u2", spec(null, "SV", "192.0.2.52", "00:00:00:00:00:52"), null));

  /**
   * One item with the given keys (dash: absent) is which node, or is refused naming which id: a
   * node with an inventoryId is its record's (n1..n3); matching only adopts a node without one.
   */
  @ParameterizedTest(name = "{0}/{1}/{2}/{3} id {4} -> {5} {6}")
  @CsvSource(
      nullValues = "-",
      value = {
        "inv-2, S9, -, -, x, UPDATE, n2",
        "inv-2, S1, -, -, x, REJECT, n2", // inventoryId wins; n1's serial then clashes
        "inv-2, SU, -, -, x, REJECT, n2", // its own node; u1 keeps its serial: a conflict
        "-, S3, -, -, x, REJECT, x", // n3 is inv-3's: not adopted; x would take its serial
        "-, -, 192.0.2.1, -, x, REJECT, x", // nor by address
        "-, -, -, 00-00-00-00-00-02, x, REJECT, x", // nor by MAC
        "-, -, -, -, n3, REJECT, n3", // nor by id
        "inv-9, -, -, -, n3, REJECT, n3", // nor by another record's id
        "-, SU, -, -, x, UPDATE, u1", // an unowned node is adopted by serial
        "-, SU, 192.0.2.52, -, x, REJECT, u1", // serial before address (u2 keeps its address)
        "-, -, 192.0.2.52, 00:00:00:00:00:51, x, REJECT, u2", // address before MAC
        "-, -, -, 00-00-00-00-00-51, x, UPDATE, u1", // MAC in any accepted form
        "inv-9, -, -, -, u2, UPDATE, u2", // then the id
        "-, -, -, -, new-1, CREATE, new-1",
        "inv-9, S9, 203.0.113.99, -, new-2, CREATE, new-2",
        "-, -, -, -, -, REJECT, -", // no id and no match
        "-, -, -, -, Bad, REJECT, Bad",
        "-, S3, -, -, Bad, REJECT, Bad", // an invalid id is refused whatever the item matches
        "inv-1, -, -, -, a/../b, REJECT, a/../b",
      })
  void aNodeIsItsRecordsAndMatchingOnlyAdopts(
      String inv,
      String serial,
      String address,
      String mac,
      String id,
      String kind,
      String target) {
    NodeSpec keys = spec(inv, serial, address, mac).toBuilder().rack("moved").build();
    SyncPlan p =
        SyncPlanner.plan(List.of(SyncItem.replacing(0, id, keys)), WITH_UNOWNED, n -> false, false);
    assertThat(p.actions()).hasSize(1);
    assertThat(p.actions().get(0).kind()).isEqualTo(SyncPlan.Kind.valueOf(kind));
    assertThat(p.actions().get(0).id()).isEqualTo(target);
  }

  @Test
  void anUnchangedSpecIsNotAWriteAndPowerFieldsAreKept() {
    Node on =
        node(
            "p1",
            spec("inv-p", "SP", null, null).toBuilder().desiredPower(DesiredPower.ON).build(),
            null);
    NodeSpec incoming = spec("inv-p", "SP", null, null); // no power fields: they are kept
    SyncPlan p =
        SyncPlanner.plan(
            List.of(SyncItem.replacing(0, "p1", incoming)), List.of(on), n -> true, false);
    assertThat(p.actions().get(0).kind()).isEqualTo(SyncPlan.Kind.UNCHANGED);
  }

  @Test
  void labelsInAnotherOrderAreUnchangedAndAChangedLabelIsAnUpdate() {
    java.util.LinkedHashMap<String, String> stored = new java.util.LinkedHashMap<>();
    stored.put("a", "1");
    stored.put("b", "2");
    java.util.LinkedHashMap<String, String> reordered = new java.util.LinkedHashMap<>();
    reordered.put("b", "2");
    reordered.put("a", "1");
    Node labelled =
        node("l1", spec("inv-l", "SL", null, null).toBuilder().labels(stored).build(), null);
    SyncPlan same =
        SyncPlanner.plan(
            List.of(
                SyncItem.replacing(
                    0,
                    "l1",
                    spec("inv-l", "SL", null, null).toBuilder().labels(reordered).build())),
            List.of(labelled),
            n -> true,
            false);
    assertThat(same.actions().get(0).kind()).isEqualTo(SyncPlan.Kind.UNCHANGED);
    SyncPlan changed =
        SyncPlanner.plan(
            List.of(
                SyncItem.replacing(
                    0,
                    "l1",
                    spec("inv-l", "SL", null, null).toBuilder()
                        .labels(Map.of("a", "1", "b", "3"))
                        .build())),
            List.of(labelled),
            n -> true,
            false);
    assertThat(changed.actions().get(0).kind()).isEqualTo(SyncPlan.Kind.UPDATE);
  }

  @Test
  void uniqueFieldsAreCheckedAgainstTheInventoryAsTheSyncLeavesIt() {
    List<SyncItem> items = new ArrayList<>();
    // n1 takes a new serial; a new node with that serial is refused, naming n1.
    items.add(SyncItem.replacing(0, "n1", spec("inv-1", "S1-new", "192.0.2.1", null)));
    items.add(SyncItem.replacing(1, "n9", spec(null, "S1-new", null, null)));
    // An item with n2's address does not take n2 (it is inv-2's): a conflict naming n2.
    items.add(SyncItem.replacing(2, "n8", spec(null, "S8", "192.0.2.2", null)));
    // Two items for the same node: the second is refused.
    items.add(SyncItem.replacing(3, "x", spec("inv-3", "S3", "192.0.2.3", null)));
    items.add(SyncItem.replacing(4, "y", spec("inv-3", "S3", "192.0.2.3", null)));
    SyncPlan p = plan(items, false);
    assertThat(p.actions())
        .extracting(SyncPlan.Action::kind)
        .containsExactly(
            SyncPlan.Kind.UPDATE,
            SyncPlan.Kind.REJECT,
            SyncPlan.Kind.REJECT,
            SyncPlan.Kind.UPDATE,
            SyncPlan.Kind.REJECT);
    assertThat(p.actions().get(1).reason()).contains("used by node n1");
    assertThat(p.actions().get(1).conflict()).isEqualTo("n1");
    assertThat(p.actions().get(2).reason())
        .startsWith(SyncPlan.CONFLICT)
        .contains("used by node n2 (inventoryId 'inv-2')");
    assertThat(p.actions().get(3).id()).isEqualTo("n3");
    assertThat(p.actions().get(4).reason()).contains("item 3 has the same inventoryId");
  }

  @Test
  void aNewNodeClashingWithAnotherIsRejectedNamingIt() {
    SyncPlan p =
        plan(
            List.of(
                SyncItem.replacing(0, "n9", spec("inv-9", "S9", "192.0.2.9", null)),
                SyncItem.replacing(
                    1,
                    "n10",
                    spec("inv-10", "S10", "192.0.2.10", null).toBuilder()
                        .macAddress("00:00:00:00:00:09")
                        .build()),
                SyncItem.replacing(
                    2, "n11", spec("inv-11", "S9b", "192.0.2.11", "00:00:00:00:00:09"))),
            false);
    assertThat(p.of(SyncPlan.Kind.REJECT))
        .singleElement()
        .satisfies(a -> assertThat(a.reason()).contains("used by node n10"));
  }

  @Test
  void pruneDeletesOffNodesInScopeThatNoItemMatched() {
    SyncPlan p =
        plan(List.of(SyncItem.replacing(0, "n1", spec("inv-1", "S1", "192.0.2.1", null))), true);
    assertThat(p.of(SyncPlan.Kind.DELETE)).extracting(SyncPlan.Action::id).containsExactly("n3");
    assertThat(p.of(SyncPlan.Kind.REJECT))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.id()).isEqualTo("n2");
              assertThat(a.reason()).contains("on");
            });
    SyncPlan outOfScope =
        SyncPlanner.plan(List.of(), CURRENT, n -> "b".equals(n.spec().pool()), true);
    assertThat(outOfScope.actions()).isEmpty();
  }

  @Test
  void invalidItemsAreRejectedWithTheirFieldErrors() {
    SyncPlan p =
        plan(
            List.of(
                SyncItem.replacing(0, "n5", NodeSpec.builder().macAddress("zz").build()),
                SyncItem.unreadable(
                    1,
                    "n6",
                    List.of(new io.bamel.inventory.model.FieldError("spec", "must be an object")))),
            false);
    assertThat(p.actions()).extracting(SyncPlan.Action::kind).containsOnly(SyncPlan.Kind.REJECT);
    assertThat(p.actions().get(0).errors()).extracting(e -> e.field()).contains("macAddress");
    assertThat(Map.of()).isEmpty();
  }

  /** A view of a fleet that counts what a plan reads of it and refuses a walk of every node. */
  private static final class CountingFleet implements SyncPlanner.Current {
    private final SyncPlanner.Current fleet;
    int lookups;

    CountingFleet(int nodes) {
      List<Node> all = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        String n = Integer.toString(i);
        all.add(
            SyncPlannerTest.node(
                "n" + n, spec("inv-" + n, "S" + n, "192.0.2." + (i % 250), null), null));
      }
      this.fleet = SyncPlanner.Current.of(all);
    }

    @Override
    public Node node(String id) {
      lookups++;
      return fleet.node(id);
    }

    @Override
    public java.util.Optional<String> holder(SpecIndex.Field field, String value) {
      lookups++;
      return fleet.holder(field, value);
    }

    @Override
    public java.util.Collection<Node> all() {
      throw new AssertionError("the plan walked every node");
    }
  }

  @Test
  void aPlanWithoutPruneReadsAFewValuesPerItemWhateverTheFleetsSize() {
    List<SyncItem> items = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      // Ten updates of existing nodes (matched by inventory id), ten new nodes.
      String n = Integer.toString(i < 10 ? i * 7 : 1_000_000 + i);
      items.add(SyncItem.replacing(i, "n" + n, spec("inv-" + n, "S" + n, null, null)));
    }
    CountingFleet small = new CountingFleet(100);
    CountingFleet large = new CountingFleet(5_000);

    SyncPlan onSmall = SyncPlanner.plan(items, small, n -> true, false, RULES);
    SyncPlan onLarge = SyncPlanner.plan(items, large, n -> true, false, RULES);

    assertThat(onLarge.actions()).hasSize(20);
    assertThat(onLarge.of(SyncPlan.Kind.UPDATE)).hasSize(10);
    assertThat(onLarge.of(SyncPlan.Kind.CREATE)).hasSize(10);
    assertThat(onLarge.actions()).isEqualTo(onSmall.actions());
    assertThat(large.lookups).isEqualTo(small.lookups).isLessThanOrEqualTo(20 * 10);
  }
}
