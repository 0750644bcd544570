package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.InvalidInputException;
import org.junit.jupiter.api.Test;

class KeysTest {

  @Test
  void buildsTheSchema() {
    assertThat(Keys.nodeSpec("n1")).isEqualTo("/baremetal/nodes/n1/spec");
    assertThat(Keys.nodeStatus("n1")).isEqualTo("/baremetal/nodes/n1/status");
    assertThat(Keys.nodeReadings("n1")).isEqualTo("/baremetal/nodes/n1/metrics");
    assertThat(Keys.nodeEvent("n1", 42)).isEqualTo("/baremetal/events/n1/0000000000000042");
    assertThat(Keys.poolConfig("gpu")).isEqualTo("/baremetal/pools/gpu/config");
    assertThat(Keys.poolMember("gpu", "n1")).isEqualTo("/baremetal/pools/gpu/members/n1");
    assertThat(Keys.poolStatus("gpu")).isEqualTo("/baremetal/pools/gpu/status");
    assertThat(Keys.poolHistory("gpu")).isEqualTo("/baremetal/pools/gpu/history");
    assertThat(Keys.leader("node-controller")).isEqualTo("/baremetal/leader/node-controller");
  }

  @Test
  void parsesWhatItBuilds() {
    assertThat(Keys.parse(Keys.nodeSpec("n1")))
        .isEqualTo(new KeyRef(KeyRef.Kind.NODE_SPEC, "n1", null, 0));
    assertThat(Keys.parse(Keys.nodeEvent("n1", 7)))
        .isEqualTo(new KeyRef(KeyRef.Kind.NODE_EVENT, "n1", null, 7));
    assertThat(Keys.parse(Keys.poolMember("p", "n1")))
        .isEqualTo(new KeyRef(KeyRef.Kind.POOL_MEMBER, "n1", "p", 0));
    assertThat(Keys.parse(Keys.poolHistory("p")))
        .isEqualTo(new KeyRef(KeyRef.Kind.POOL_HISTORY, null, "p", 0));
    assertThat(Keys.parse("/baremetal/pools/p/other").kind()).isEqualTo(KeyRef.Kind.OTHER);
    assertThat(Keys.parse("/baremetal/nodes/n1/other").kind()).isEqualTo(KeyRef.Kind.OTHER);
    assertThat(Keys.parse("/elsewhere").kind()).isEqualTo(KeyRef.Kind.OTHER);
  }

  @Test
  void eventSequencesArePaddedAsFormatPadsThem() {
    for (long seq :
        new long[] {0, 1, 9, 10, 99_999, 1L << 40, 999_999_999_999_999L, 1_000_000_000_000_000L}) {
      assertThat(Keys.nodeEvent("n1", seq))
          .isEqualTo("/baremetal/events/n1/" + String.format(java.util.Locale.ROOT, "%016d", seq));
      assertThat(Keys.parse(Keys.nodeEvent("n1", seq)).seq()).isEqualTo(seq);
    }
    assertThat(Keys.nodeEvent("n1", Long.MAX_VALUE)).endsWith("/" + Long.MAX_VALUE);
    assertThat(Keys.parse("/baremetal/events/n1/12a4").kind()).isEqualTo(KeyRef.Kind.OTHER);
    assertThat(Keys.parse("/baremetal/events/n1/").kind()).isEqualTo(KeyRef.Kind.OTHER);
    assertThat(Keys.parse("/baremetal/events/n1/\u0661").kind()).isEqualTo(KeyRef.Kind.OTHER);
    assertThat(Keys.parse("/baremetal/events/n1/" + "1".repeat(20)).kind())
        .isEqualTo(KeyRef.Kind.OTHER);
  }

  @Test
  void eventKeysSortBySequence() {
    assertThat(Keys.nodeEvent("n", 9)).isLessThan(Keys.nodeEvent("n", 10));
  }

  @Test
  void unsafeIdsNeverBecomeKeys() {
    assertThatThrownBy(() -> Keys.nodeSpec("../pools")).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> Keys.poolMember("p", "a/b")).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> Keys.poolHistory("../nodes"))
        .isInstanceOf(InvalidInputException.class);
  }

  @Test
  void prefixEndIncrementsTheLastByte() {
    assertThat(Keys.prefixEnd("/baremetal/")).isEqualTo("/baremetal0");
  }
}
