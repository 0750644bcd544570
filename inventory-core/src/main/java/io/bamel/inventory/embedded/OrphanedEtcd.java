package io.bamel.inventory.embedded;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Which running process is an embedded etcd left behind by a bamel that died without stopping it.
 *
 * <p>An embedded etcd runs in a session of its own ({@link OwnSession}) so that a terminal's Ctrl-C
 * reaches only bamel, which stops etcd last. The price: a bamel killed outright (SIGKILL, the OOM
 * killer) cannot stop its etcd, and nothing else signals it. The next embedded start therefore
 * stops such an orphan first, and only such one: a process is an orphan of ours when its program is
 * named {@code etcd}, its parent is gone (re-parented to init, pid 1, or no parent at all), and its
 * {@code --data-dir} is the data directory about to be used or lies in a demo's temporary directory
 * (a directory whose name starts with {@code bamel-demo-} directly under the temporary directory).
 * An etcd with a live parent other than init, a child of this very process (bamel may be pid 1 in a
 * container), or one holding anyone else's data, is never touched.
 */
public final class OrphanedEtcd {

  /** The prefix of the demo's temporary directory ({@code Files.createTempDirectory}). */
  public static final String DEMO_PREFIX = "bamel-demo-";

  private OrphanedEtcd() {}

  /**
   * Whether the process described is an orphaned embedded etcd of bamel's.
   *
   * @param command the process's program path, if known
   * @param commandLine its whole command line, if known
   * @param parentPid its parent's pid, empty when it has none
   * @param parentAlive whether that parent still runs
   * @param selfPid this process's pid
   * @param dataDir the data directory about to be used
   * @param tmpDir the temporary directory the demo's directories are made in
   */
  public static boolean isOrphan(
      Optional<String> command,
      Optional<String> commandLine,
      Optional<Long> parentPid,
      boolean parentAlive,
      long selfPid,
      Path dataDir,
      Path tmpDir) {
    if (command.isEmpty() || commandLine.isEmpty()) {
      return false;
    }
    if (!Path.of(command.get()).getFileName().toString().equals("etcd")) {
      return false;
    }
    if (parentPid.isPresent() && parentPid.get() == selfPid) {
      return false;
    }
    boolean orphaned = parentPid.isEmpty() || parentPid.get() == 1L || !parentAlive;
    if (!orphaned) {
      return false;
    }
    Optional<Path> itsData = dataDir(commandLine.get());
    if (itsData.isEmpty()) {
      return false;
    }
    Path data = itsData.get().normalize();
    if (data.equals(dataDir.toAbsolutePath().normalize())) {
      return true;
    }
    Path tmp = tmpDir.toAbsolutePath().normalize();
    if (!data.startsWith(tmp) || data.getNameCount() <= tmp.getNameCount()) {
      return false;
    }
    return data.getName(tmp.getNameCount()).toString().startsWith(DEMO_PREFIX);
  }

  /** The absolute {@code --data-dir=} of an etcd command line, if it has one. */
  static Optional<Path> dataDir(String commandLine) {
    for (String arg : commandLine.split(" ")) {
      if (arg.startsWith("--data-dir=")) {
        String value = arg.substring("--data-dir=".length());
        if (!value.isEmpty() && value.startsWith("/")) {
          return Optional.of(Path.of(value));
        }
      }
    }
    return Optional.empty();
  }
}
