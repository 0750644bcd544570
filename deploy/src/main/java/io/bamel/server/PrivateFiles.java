package io.bamel.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories only their owner can read: directories {@code 0700}, files {@code 0600}. A
 * file is written to a temporary file created with mode {@code 0600} in the same directory and
 * moved over the target atomically, so it is never readable by others, not even for a moment, and a
 * reader never sees it half written. On a file system without POSIX permissions the modes are left
 * as they are.
 */
public final class PrivateFiles {

  /** {@code rw-------}. */
  public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  /** {@code rwx------}. */
  public static final Set<PosixFilePermission> DIRECTORY =
      PosixFilePermissions.fromString("rwx------");

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private PrivateFiles() {}

  /**
   * Creates {@code dir} (and missing parents, with default modes) and sets its own mode to {@code
   * 0700}, also when it existed with another mode.
   */
  public static Path directory(Path dir) throws IOException {
    Files.createDirectories(dir);
    if (POSIX) {
      Files.setPosixFilePermissions(dir, DIRECTORY);
    }
    return dir;
  }

  /** Sets an existing file's mode to {@code 0600}. */
  public static void restrict(Path file) throws IOException {
    if (POSIX) {
      Files.setPosixFilePermissions(file, FILE);
    }
  }

  /** Writes {@code bytes} to {@code file} (replacing it) with mode {@code 0600}. */
  public static Path write(Path file, byte[] bytes) throws IOException {
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    Files.createDirectories(dir);
    Path tmp =
        POSIX
            ? Files.createTempFile(
                dir, "." + target.getFileName(), ".tmp", PosixFilePermissions.asFileAttribute(FILE))
            : Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
    try {
      Files.write(tmp, bytes);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return target;
  }

  /** Writes {@code text} as UTF-8 to {@code file} (replacing it) with mode {@code 0600}. */
  public static Path write(Path file, String text) throws IOException {
    return write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Whether {@code file} can be read by its group or by others; false where the file system has no
   * POSIX permissions.
   */
  public static boolean readableByOthers(Path file) throws IOException {
    if (!POSIX) {
      return false;
    }
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
    return mode.contains(PosixFilePermission.GROUP_READ)
        || mode.contains(PosixFilePermission.OTHERS_READ);
  }
}
