package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.Pool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cache's content as keys change, revision by revision. */
class CacheStateTest {

  private static KeyChange member(String pool, String id, boolean present) {
    return new KeyChange(Keys.parse(Keys.poolMember(pool, id)), present ? "" : null, 1, null);
  }

  @Test
  void eachRevisionsPoolKeepsItsOwnMembersWhileLaterRevisionsChangeThem() {
    CacheState state = new CacheState();
    List<KeyChange> initial = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      initial.add(member("big", String.format("n%05d", i), true));
    }
    state.apply(initial, 2);
    Pool atTwo = state.pools().get("big");

    List<InventoryChange> added = state.apply(List.of(member("big", "n99999", true)), 3);
    Pool atThree = state.pools().get("big");
    state.apply(List.of(member("big", "n00000", false)), 4);
    Pool atFour = state.pools().get("big");

    assertThat(added).singleElement().isInstanceOf(PoolChange.class);
    assertThat(atTwo.members()).hasSize(10_000).doesNotContain("n99999");
    assertThat(atThree.members()).hasSize(10_001).contains("n99999", "n00000");
    assertThat(atFour.members()).hasSize(10_000).contains("n99999").doesNotContain("n00000");
    assertThat(atFour.sortedMembers().first()).isEqualTo("n00001");
    assertThat(atFour.sortedMembers().tailSet("n09998", false)).containsExactly("n09999", "n99999");
  }

  private static KeyChange spec(int i, String pool) {
    String id = TestNodes.id(i);
    return new KeyChange(Keys.parse(Keys.nodeSpec(id)), TestNodes.spec(i, pool), 5, null);
  }

  @Test
  void aListingBuildsWhatTheSameKeysAppliedOneByOneBuildAndDropsWhatItLacks() {
    List<KeyChange> listing = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      listing.add(spec(i, "pool-" + (i % 3)));
    }
    for (int i = 0; i < 300; i++) {
      listing.add(member("pool-" + (i % 3), TestNodes.id(i), true));
    }
    CacheState oneByOne = new CacheState();
    for (KeyChange change : listing) {
      oneByOne.apply(List.of(change), 5);
    }
    CacheState listed = new CacheState();
    listed.apply(List.of(spec(999, "gone"), member("gone", TestNodes.id(999), true)), 2);

    List<InventoryChange> changes = listed.replace(listing, 5);

    assertThat(listed.sortedIds()).containsExactlyElementsOf(oneByOne.sortedIds()).hasSize(300);
    assertThat(listed.sortedIds().first()).isEqualTo(TestNodes.id(0));
    assertThat(listed.pools()).isEqualTo(oneByOne.pools()).doesNotContainKey("gone");
    assertThat(listed.pools().get("pool-1").sortedMembers())
        .hasSize(100)
        .startsWith(TestNodes.id(1), TestNodes.id(4));
    assertThat(listed.nodes()).isEqualTo(oneByOne.nodes());
    assertThat(changes)
        .filteredOn(c -> c instanceof NodeChange n && n.id().equals(TestNodes.id(999)))
        .singleElement()
        .satisfies(c -> assertThat(((NodeChange) c).current()).isNull());
    assertThat(changes).filteredOn(c -> c instanceof PoolChange).hasSize(4);

    listed.apply(List.of(member("pool-1", TestNodes.id(1), false)), 6);
    assertThat(listed.pools().get("pool-1").members()).hasSize(99);
  }
}
