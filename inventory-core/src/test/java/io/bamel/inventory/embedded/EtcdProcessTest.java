package io.bamel.inventory.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdProcessTest {

  @Test
  void missingEtcdNamesThePackageToInstall(@TempDir Path empty) {
    assertThatThrownBy(() -> EtcdProcess.findBinary(Map.of("PATH", empty.toString())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("etcd not found")
        .hasMessageContaining("apt-get install etcd-server")
        .hasMessageContaining("BAMEL_ETCD_BIN");
  }

  @Test
  void configuredBinaryMustBeExecutable(@TempDir Path dir) throws Exception {
    Path notExecutable = Files.writeString(dir.resolve("etcd"), "#!/bin/sh\n");
    assertThatThrownBy(
            () -> EtcdProcess.findBinary(Map.of("BAMEL_ETCD_BIN", notExecutable.toString())))
        .hasMessageContaining("is not an executable");
  }

  @Test
  void findsEtcdOnThePath(@TempDir Path dir) throws Exception {
    Path fake = Files.writeString(dir.resolve("etcd"), "#!/bin/sh\n");
    assertThat(fake.toFile().setExecutable(true)).isTrue();
    assertThat(EtcdProcess.findBinary(Map.of("PATH", "/nonexistent:" + dir)))
        .isEqualTo(dir.resolve("etcd"));
  }

  @Test
  void freePortsAreOnLoopbackAndDistinct() {
    int a = EtcdProcess.freePort();
    int b = EtcdProcess.freePort();
    assertThat(a).isPositive();
    assertThat(b).isPositive();
  }
}
