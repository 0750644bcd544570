package io.bamel.inventory.embedded;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the orphaned embedded etcd processes that {@link OrphanedEtcd} recognises, before a new
 * embedded etcd starts: SIGTERM, up to 10 s for it to exit, then SIGKILL. Each one stopped is a
 * WARN naming its pid and data directory.
 */
final class OrphanReaper {

  private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

  private OrphanReaper() {}

  /** Stops every orphan of {@code dataDir} or of a demo; returns how many. */
  static int reap(Path dataDir) {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    List<ProcessHandle> orphans =
        ProcessHandle.allProcesses()
            .filter(p -> p.pid() != ProcessHandle.current().pid())
            .filter(
                p -> {
                  ProcessHandle.Info info = p.info();
                  Optional<ProcessHandle> parent = p.parent();
                  return OrphanedEtcd.isOrphan(
                      info.command(),
                      info.commandLine(),
                      parent.map(ProcessHandle::pid),
                      parent.map(ProcessHandle::isAlive).orElse(false),
                      ProcessHandle.current().pid(),
                      dataDir,
                      tmp);
                })
            .toList();
    for (ProcessHandle orphan : orphans) {
      String data =
          orphan.info().commandLine().flatMap(OrphanedEtcd::dataDir).map(Path::toString).orElse("");
      LOG.warn(
          "stopping etcd pid {} (data {}): left running by a bamel that did not stop it",
          orphan.pid(),
          data);
      orphan.destroy();
      try {
        orphan.onExit().get(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        orphan.destroyForcibly();
      } catch (Exception e) {
        orphan.destroyForcibly();
      }
    }
    return orphans.size();
  }
}
