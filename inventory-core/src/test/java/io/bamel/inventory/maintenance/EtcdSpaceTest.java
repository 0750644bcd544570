package io.bamel.inventory.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class EtcdSpaceTest {

  private static final long MIB = 1 << 20;

  @Test
  void belowTheWarningShareAllIsWell() {
    EtcdSpace space = new EtcdSpace(1_600 * MIB - 1, 900 * MIB, 2_000 * MIB, Set.of());
    assertThat(space.level()).isEqualTo(EtcdSpace.Level.OK);
    assertThat(space.problem()).isNull();
  }

  @Test
  void nearTheQuotaItSaysHowFullAndWhatToDo() {
    EtcdSpace space = new EtcdSpace(1_700 * MIB, 300 * MIB, 2_000 * MIB, Set.of());
    assertThat(space.level()).isEqualTo(EtcdSpace.Level.NEARLY_FULL);
    assertThat(space.problem())
        .contains("1700 MiB", "85%", "2000 MiB", "300 MiB in use", "bamel etcd defrag");
  }

  @Test
  void anAlarmWinsWhateverTheSize() {
    EtcdSpace space = new EtcdSpace(10 * MIB, 10 * MIB, 2_000 * MIB, Set.of("NOSPACE"));
    assertThat(space.level()).isEqualTo(EtcdSpace.Level.ALARM);
    assertThat(space.problem()).contains("NOSPACE", "refuses every write");
  }

  @Test
  void anUnknownQuotaNeverWarns() {
    assertThat(new EtcdSpace(8_000 * MIB, 0, 0, Set.of()).level()).isEqualTo(EtcdSpace.Level.OK);
    assertThat(EtcdSpace.UNKNOWN.level()).isEqualTo(EtcdSpace.Level.OK);
  }
}
