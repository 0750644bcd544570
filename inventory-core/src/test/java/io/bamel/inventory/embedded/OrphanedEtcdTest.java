package io.bamel.inventory.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrphanedEtcdTest {

  private static final Path DATA = Path.of("/var/lib/bamel/etcd");
  private static final Path TMP = Path.of("/tmp");
  private static final long SELF = 4242;

  @ParameterizedTest(name = "{0} parent={2} alive={3} data={1} -> {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the data directory about to be used, left by a bamel killed outright
        "/usr/bin/etcd  | /var/lib/bamel/etcd                        | 1    | true  | true",
        "/usr/bin/etcd  | /var/lib/bamel/etcd                        | -1   | false | true",
        "/usr/bin/etcd  | /var/lib/bamel/etcd                        | 777  | false | true",
        // a demo's, whichever demo it was
        "/usr/bin/etcd  | /tmp/bamel-demo-123/etcd/member            | 1    | true  | true",
        "/opt/etcd/etcd | /tmp/bamel-demo-9/etcd                     | 1    | true  | true",
        // its bamel still runs: never touched
        "/usr/bin/etcd  | /var/lib/bamel/etcd                        | 777  | true  | false",
        "/usr/bin/etcd  | /tmp/bamel-demo-123/etcd/member            | 777  | true  | false",
        // a child of this very process (bamel as pid 1 in a container)
        "/usr/bin/etcd  | /var/lib/bamel/etcd                        | 4242 | true  | false",
        // someone else's etcd, orphaned or not
        "/usr/bin/etcd  | /var/lib/etcd                              | 1    | true  | false",
        "/usr/bin/etcd  | /tmp/other-123/etcd                        | 1    | true  | false",
        "/usr/bin/etcd  | /tmp/x/bamel-demo-1/etcd                   | 1    | true  | false",
        "/usr/bin/etcd  | /tmp                                       | 1    | true  | false",
        // not etcd at all
        "/usr/bin/etcdctl | /var/lib/bamel/etcd                      | 1    | true  | false",
        "/usr/bin/java  | /var/lib/bamel/etcd                        | 1    | true  | false",
      })
  void onlyAnOrphanedEmbeddedEtcdOfOursIsStopped(
      String command, String dataDir, long parent, boolean alive, boolean orphan) {
    String commandLine = command + " --name=bamel --data-dir=" + dataDir + " --logger=zap";
    Optional<Long> parentPid = parent < 0 ? Optional.empty() : Optional.of(parent);
    assertThat(
            OrphanedEtcd.isOrphan(
                Optional.of(command), Optional.of(commandLine), parentPid, alive, SELF, DATA, TMP))
        .isEqualTo(orphan);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/usr/bin/etcd --name=a                    | ",
        "/usr/bin/etcd --data-dir=relative/dir     | ",
        "/usr/bin/etcd --data-dir=                 | ",
        "/usr/bin/etcd --data-dir=/srv/etcd --x=1  | /srv/etcd",
      })
  void theDataDirectoryIsReadFromTheCommandLine(String commandLine, String expected) {
    assertThat(OrphanedEtcd.dataDir(commandLine))
        .isEqualTo(Optional.ofNullable(expected).map(Path::of));
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void unknownProcessDetailsAreNeverAnOrphan(boolean commandKnown) {
    assertThat(
            OrphanedEtcd.isOrphan(
                commandKnown ? Optional.of("/usr/bin/etcd") : Optional.empty(),
                commandKnown ? Optional.empty() : Optional.of("/usr/bin/etcd --data-dir=/d"),
                Optional.of(1L),
                true,
                SELF,
                Path.of("/d"),
                TMP))
        .isFalse();
  }
}
