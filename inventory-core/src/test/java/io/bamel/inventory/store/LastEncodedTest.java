package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeEvent;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LastEncodedTest {

  private static final Instant T = Instant.parse("2026-11-26T08:00:00Z");

  @Test
  void equalValuesAreEncodedOnceAndGetTheCodecsBytes() {
    LastEncoded memo = new LastEncoded();
    NodeEvent created = NodeEvent.change(T, "created", "sync", "alice", "req-1").withSeq(1);
    byte[] first = memo.encode(created);
    for (int i = 0; i < 100; i++) {
      NodeEvent same = NodeEvent.change(T, "created", "sync", "alice", "req-1").withSeq(1);
      assertThat(memo.encode(same)).isSameAs(first);
    }
    assertThat(memo.encodings()).isEqualTo(1);
    assertThat(first).isEqualTo(Codec.encode(created));
  }

  @Test
  void aDifferentValueIsEncodedAfresh() {
    LastEncoded memo = new LastEncoded();
    NodeEvent one = NodeEvent.change(T, "created", "sync", "alice", "req-1").withSeq(1);
    NodeEvent two = one.withSeq(2);
    NodeEvent later = NodeEvent.change(T.plusNanos(1), "created", "sync", "alice", "req-1");
    assertThat(memo.encode(one)).isEqualTo(Codec.encode(one));
    assertThat(memo.encode(two)).isEqualTo(Codec.encode(two));
    assertThat(memo.encode(later.withSeq(2))).isEqualTo(Codec.encode(later.withSeq(2)));
    assertThat(memo.encode(one)).isEqualTo(Codec.encode(one));
    assertThat(memo.encodings()).isEqualTo(4);
  }
}
