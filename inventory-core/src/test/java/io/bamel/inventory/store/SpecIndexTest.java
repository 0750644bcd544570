package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.store.SpecIndex.Field;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cache's index of identifying spec values, kept change by change. */
class SpecIndexTest {

  private static KeyChange spec(String id, NodeSpec spec, long revision) {
    return new KeyChange(Keys.parse(Keys.nodeSpec(id)), spec, revision, null);
  }

  private static KeyChange status(String id, long revision) {
    return new KeyChange(
        Keys.parse(Keys.nodeStatus(id)), NodeStatus.builder().build(), revision, null);
  }

  @Test
  void everyValueNamesItsNodeAndFollowsChangesAndDeletes() {
    CacheState state = new CacheState();
    SpecIndex index = state.specIndex();
    List<KeyChange> listing = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      listing.add(spec(TestNodes.id(i), TestNodes.spec(i, "p"), 2));
    }
    state.apply(listing, 2);

    assertThat(index.holder(Field.SERIAL, "SN100007")).contains("node-00007");
    assertThat(index.holder(Field.MAC_ADDRESS, "0c:c4:7a:00:00:07")).contains("node-00007");
    assertThat(index.holder(Field.MGMT_ADDRESS, "https://10.0.0.7")).contains("node-00007");
    assertThat(index.holder(Field.INVENTORY_ID, "dcim-7")).contains("node-00007");
    assertThat(index.holder(Field.SERIAL, null)).isEmpty();
    assertThat(index.size(Field.SERIAL)).isEqualTo(100);

    // A new serial frees the old one; a status write leaves the index as it is.
    state.apply(
        List.of(spec("node-00007", TestNodes.spec(7, "p").toBuilder().serial("NEW").build(), 3)),
        3);
    state.apply(List.of(status("node-00008", 4)), 4);
    assertThat(index.holder(Field.SERIAL, "SN100007")).isEmpty();
    assertThat(index.holder(Field.SERIAL, "NEW")).contains("node-00007");
    assertThat(index.holder(Field.SERIAL, "SN100008")).contains("node-00008");
    assertThat(index.holder(Field.MAC_ADDRESS, "0c:c4:7a:00:00:07")).contains("node-00007");

    // A deleted spec frees every value of the node.
    state.apply(List.of(spec("node-00009", null, 5)), 5);
    assertThat(index.holder(Field.SERIAL, "SN100009")).isEmpty();
    assertThat(index.holder(Field.INVENTORY_ID, "dcim-9")).isEmpty();

    // A relist without a node frees its values; the others stay.
    listing.removeIf(c -> c.ref().id().equals("node-00001") || c.ref().id().equals("node-00009"));
    state.replace(listing, 6);
    assertThat(index.holder(Field.SERIAL, "SN100001")).isEmpty();
    assertThat(index.holder(Field.SERIAL, "SN100007")).contains("node-00007");
    assertThat(index.size(Field.SERIAL)).isEqualTo(98);
  }

  @Test
  void aValueTwoNodesHoldPassesToTheOtherWhenItsHolderLetsGo() {
    CacheState state = new CacheState();
    SpecIndex index = state.specIndex();
    NodeSpec a = TestNodes.spec(1, "p").toBuilder().inventoryId("shared").build();
    NodeSpec b = TestNodes.spec(2, "p").toBuilder().inventoryId("shared").build();
    NodeSpec c = TestNodes.spec(3, "p").toBuilder().inventoryId("shared").build();
    state.apply(List.of(spec("a", a, 2)), 2);
    state.apply(List.of(spec("c", c, 3)), 3);
    state.apply(List.of(spec("b", b, 4)), 4);
    assertThat(index.holder(Field.INVENTORY_ID, "shared")).contains("a");

    state.apply(List.of(spec("a", null, 5)), 5);
    assertThat(index.holder(Field.INVENTORY_ID, "shared")).contains("b");
    state.apply(List.of(spec("c", c.toBuilder().inventoryId("own").build(), 6)), 6);
    assertThat(index.holder(Field.INVENTORY_ID, "shared")).contains("b");
    state.apply(List.of(spec("b", null, 7)), 7);
    assertThat(index.holder(Field.INVENTORY_ID, "shared")).isEmpty();
    assertThat(index.holder(Field.INVENTORY_ID, "own")).contains("c");
  }
}
