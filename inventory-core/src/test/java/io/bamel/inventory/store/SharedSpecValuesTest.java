package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeSpec;
import org.junit.jupiter.api.Test;

/**
 * Two specs decoded from etcd's bytes share the values a fleet repeats (the cache holds 100,000 of
 * them), and keep the values each node has for itself.
 */
class SharedSpecValuesTest {

  @Test
  void decodedSpecsShareRepeatedValuesAndKeepTheirOwn() {
    NodeSpec a = Codec.decode(Codec.encode(TestNodes.spec(1, "pool-a")), NodeSpec.class);
    NodeSpec b = Codec.decode(Codec.encode(TestNodes.spec(41, "pool-a")), NodeSpec.class);

    assertThat(b.site()).isEqualTo("dc1").isSameAs(a.site());
    assertThat(b.rack()).isEqualTo("r1").isSameAs(a.rack());
    assertThat(b.pool()).isSameAs(a.pool());
    assertThat(b.bmcCredentials()).isSameAs(a.bmcCredentials());
    assertThat(b.powerInterface()).isSameAs(a.powerInterface());
    assertThat(b.resources().cpu()).isSameAs(a.resources().cpu());
    assertThat(b.resources().memory()).isSameAs(a.resources().memory());

    assertThat(b.serial()).isNotEqualTo(a.serial());
    assertThat(b.macAddress()).isNotEqualTo(a.macAddress());
  }
}
