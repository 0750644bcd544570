package io.bamel.inventory.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.store.SpecIndex;
import io.bamel.inventory.sync.IdentityRule.Claim;
import io.bamel.inventory.sync.IdentityRule.Decision;
import io.bamel.inventory.sync.IdentityRule.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The identity rule as a table: claims and nodes in, decisions out. */
class IdentityRuleTest {

  /** Node a is netbox:1's; u and p belong to no record; p has a placeholder serial. */
  private static final IdentityRule.Nodes NODES =
      nodes(
          Map.of(
              "a", new String[] {"netbox:1", "SA", "192.0.2.1", "00:00:00:00:00:01"},
              "u", new String[] {null, "SU", "192.0.2.2", "00:00:00:00:00:02"},
              "p", new String[] {null, "To be filled by O.E.M.", null, null}));

  /** A fake inventory: id -> {inventoryId, serial, mgmtAddress, macAddress}. */
  static IdentityRule.Nodes nodes(Map<String, String[]> nodes) {
    Map<SpecIndex.Field, Map<String, String>> index = new HashMap<>();
    for (SpecIndex.Field f : SpecIndex.Field.values()) {
      index.put(f, new HashMap<>());
    }
    nodes.forEach(
        (id, v) -> {
          put(index, SpecIndex.Field.INVENTORY_ID, v[0], id);
          put(
              index,
              SpecIndex.Field.SERIAL,
              io.bamel.inventory.model.PlaceholderSerials.identifying(v[1]),
              id);
          put(index, SpecIndex.Field.MGMT_ADDRESS, v[2], id);
          put(index, SpecIndex.Field.MAC_ADDRESS, v[3], id);
        });
    return new IdentityRule.Nodes() {
      @Override
      public boolean exists(String id) {
        return nodes.containsKey(id);
      }

      @Override
      public String owner(String id) {
        return nodes.containsKey(id) ? nodes.get(id)[0] : null;
      }

      @Override
      public Optional<String> holder(SpecIndex.Field field, String value) {
        return Optional.ofNullable(index.get(field).get(value));
      }
    };
  }

  private static void put(
      Map<SpecIndex.Field, Map<String, String>> index, SpecIndex.Field f, String v, String id) {
    if (v != null) {
      index.get(f).put(v, id);
    }
  }

  @ParameterizedTest(name = "{0} id {1} (fallback {2}) serial {3} mgmt {4} mac {5} -> {6} {7}")
  @CsvSource(
      nullValues = "-",
      value = {
        "netbox:1, renamed, netbox-1, -, -, -, OWNED, a", // its node, whatever its name became
        "netbox:1, renamed, netbox-1, SU, -, -, OWNED, a", // owned first: u is not adopted
        "netbox:2, a, netbox-2, -, -, -, NEW, netbox-2", // a is netbox:1's: the fallback
        "-, a, -, -, -, -, CONFLICT, a", // no fallback: a conflict naming a
        "netbox:2, x, netbox-2, SA, -, -, NEW, x", // a holds the serial but is netbox:1's
        "netbox:2, x, netbox-2, -, 192.0.2.1, -, NEW, x", // nor by address
        "netbox:2, x, netbox-2, -, -, 00:00:00:00:00:01, NEW, x", // nor by MAC
        "netbox:2, x, netbox-2, SU, -, -, ADOPTED, u", // u has no owner: adopted by serial
        "netbox:2, x, netbox-2, -, 192.0.2.2, -, ADOPTED, u", // by address
        "netbox:2, x, netbox-2, -, -, 00:00:00:00:00:02, ADOPTED, u", // by MAC
        "netbox:2, x, netbox-2, to be filled by o.e.m. , -, -, NEW, x", // a placeholder is none
        "netbox:2, p, netbox-2, -, -, -, ADOPTED, p", // by id
        "netbox:2, -, netbox-2, -, -, -, NEW, netbox-2", // no usable name
        "-, -, -, -, -, -, NONE, -",
      })
  void oneClaim(
      String inventoryId,
      String id,
      String fallback,
      String serial,
      String mgmt,
      String mac,
      Outcome outcome,
      String node) {
    Decision d =
        IdentityRule.decide(
                List.of(new Claim(0, inventoryId, id, fallback, serial, mgmt, mac)), NODES)
            .get(0);
    assertThat(d.outcome()).isEqualTo(outcome);
    assertThat(d.node()).isEqualTo(node);
  }

  @Test
  void twoDevicesWithOneNameTheLowerIdGetsItInEveryOrder() {
    Claim high = new Claim(0, "netbox:142", "edge-gw-01", "netbox-142", null, null, null);
    Claim low = new Claim(1, "netbox:141", "edge-gw-01", "netbox-141", null, null, null);
    for (List<Claim> claims : List.of(List.of(high, low), List.of(low, high))) {
      Map<Integer, Decision> d = IdentityRule.decide(claims, nodes(Map.of()));
      assertThat(d.get(1)).isEqualTo(new Decision(Outcome.NEW, "edge-gw-01", null));
      assertThat(d.get(0)).isEqualTo(new Decision(Outcome.NEW, "netbox-142", null));
    }
  }

  @Test
  void aNameWhoseNodeIsOwnedStaysWithItsOwnerWhateverTheRank() {
    // edge-gw-01 was given to netbox:142 in the past: netbox:141 gets its fallback, not the node.
    IdentityRule.Nodes past =
        nodes(
            Map.<String, String[]>of("edge-gw-01", new String[] {"netbox:142", null, null, null}));
    Map<Integer, Decision> d =
        IdentityRule.decide(
            List.of(
                new Claim(0, "netbox:141", "edge-gw-01", "netbox-141", null, null, null),
                new Claim(1, "netbox:142", "edge-gw-01", "netbox-142", null, null, null)),
            past);
    assertThat(d.get(0)).isEqualTo(new Decision(Outcome.NEW, "netbox-141", null));
    assertThat(d.get(1)).isEqualTo(new Decision(Outcome.OWNED, "edge-gw-01", null));
  }

  @Test
  void oneRecordTwiceIsADuplicateAndAnUnownedNodeGoesToTheBetterRank() {
    Map<Integer, Decision> d =
        IdentityRule.decide(
            List.of(
                new Claim(0, "netbox:9", "x", "netbox-9", "SU", null, null),
                new Claim(1, "netbox:9", "x", "netbox-9", "SU", null, null),
                new Claim(2, "netbox:3", "y", "netbox-3", "SU", null, null),
                new Claim(3, null, "z", null, "SU", null, null)),
            NODES);
    assertThat(d.get(2)).isEqualTo(new Decision(Outcome.ADOPTED, "u", null));
    assertThat(d.get(0)).isEqualTo(new Decision(Outcome.NEW, "x", null));
    assertThat(d.get(1).outcome()).isEqualTo(Outcome.DUPLICATE);
    assertThat(d.get(3)).isEqualTo(new Decision(Outcome.NEW, "z", null));
  }

  @Test
  void ranksNumberedIdsByNumberThenTextThenNoneThenPosition() {
    List<Claim> claims =
        new ArrayList<>(
            List.of(
                new Claim(0, null, "a", null, null, null, null),
                new Claim(1, "netbox:10", "a", null, null, null, null),
                new Claim(2, "netbox:9", "a", null, null, null, null),
                new Claim(3, "dcim-x", "a", null, null, null, null),
                new Claim(4, null, "a", null, null, null, null)));
    Collections.shuffle(claims, new Random(7));
    claims.sort(IdentityRule.RANK);
    assertThat(claims).extracting(Claim::index).containsExactly(2, 1, 3, 0, 4);
  }

  @Test
  void theDecisionsAreTheSameInEveryOrder() {
    Random random = new Random(31);
    List<Claim> claims = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      claims.add(
          new Claim(
              i,
              random.nextInt(10) == 0 ? null : "netbox:" + (1 + random.nextInt(300)),
              random.nextInt(8) == 0 ? null : "host-" + random.nextInt(60),
              "netbox-" + i,
              random.nextBoolean() ? "S" + random.nextInt(80) : "Default string",
              random.nextInt(3) == 0 ? "192.0.2." + random.nextInt(40) : null,
              random.nextInt(3) == 0 ? "00:00:00:00:00:" + (10 + random.nextInt(40)) : null));
    }
    Map<Integer, Decision> first = IdentityRule.decide(claims, NODES);
    for (int round = 0; round < 20; round++) {
      Collections.shuffle(claims, random);
      assertThat(IdentityRule.decide(claims, NODES)).isEqualTo(first);
    }
  }
}
