package io.bamel.inventory.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HashRingTest {

  private static final int NODES = 30_000;

  private static String node(int i) {
    return String.format("r%02d-u%05d", i % 40, i);
  }

  @Test
  void anEmptyRingOwnsNothing() {
    assertThat(HashRing.of(List.of()).owner("n1")).isEmpty();
    assertThat(HashRing.of(List.of()).owns("a", "n1")).isFalse();
  }

  @Test
  void nodesSpreadEvenlyOverTheMembers() {
    HashRing ring = HashRing.of(List.of("bamel-0", "bamel-1", "bamel-2"));
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < NODES; i++) {
      counts.merge(ring.owner(node(i)).orElseThrow(), 1, Integer::sum);
    }
    assertThat(counts).hasSize(3);
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isBetween(8_500, 11_500));
  }

  @Test
  void everyProcessComputesTheSameOwnersWhateverTheOrderOfMembers() {
    HashRing one = HashRing.of(List.of("c", "a", "b"));
    HashRing two = HashRing.of(List.of("b", "c", "a"));
    for (int i = 0; i < 2_000; i++) {
      assertThat(one.owner(node(i))).isEqualTo(two.owner(node(i)));
    }
  }

  @Test
  void whenAMemberLeavesOnlyItsNodesMoveAndTheyMoveToTheOthers() {
    HashRing three = HashRing.of(List.of("a", "b", "c"));
    HashRing two = HashRing.of(List.of("a", "c"));
    int moved = 0;
    for (int i = 0; i < NODES; i++) {
      String before = three.owner(node(i)).orElseThrow();
      String after = two.owner(node(i)).orElseThrow();
      if (before.equals("b")) {
        moved++;
        assertThat(after).isIn("a", "c");
      } else {
        assertThat(after).as("node %s kept its owner", node(i)).isEqualTo(before);
      }
    }
    assertThat(moved).isBetween(NODES / 3 - 1_500, NODES / 3 + 1_500);
  }

  @Test
  void whenAMemberJoinsItTakesAboutItsShareFromEachOfTheOthers() {
    HashRing two = HashRing.of(List.of("a", "b"));
    HashRing three = HashRing.of(List.of("a", "b", "c"));
    int taken = 0;
    for (int i = 0; i < NODES; i++) {
      String after = three.owner(node(i)).orElseThrow();
      if (!after.equals(two.owner(node(i)).orElseThrow())) {
        assertThat(after).isEqualTo("c");
        taken++;
      }
    }
    assertThat(taken).isBetween(NODES / 3 - 1_500, NODES / 3 + 1_500);
  }
}
