package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateFilesTest {

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void filesAreWrittenOwnerOnlyAndReplacedWholeLeavingNoTemporaryFile(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("sub/secret");
    PrivateFiles.write(file, "one\n");
    assertThat(mode(file)).isEqualTo("rw-------");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(PrivateFiles.readableByOthers(file)).isTrue();
    PrivateFiles.write(file, "two\n");
    assertThat(Files.readString(file)).isEqualTo("two\n");
    assertThat(mode(file)).isEqualTo("rw-------");
    assertThat(PrivateFiles.readableByOthers(file)).isFalse();
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file);
    }
  }

  @Test
  void directoriesAreOwnerOnlyAlsoWhenTheyExisted(@TempDir Path dir) throws Exception {
    Path d = Files.createDirectories(dir.resolve("data"));
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
    PrivateFiles.directory(d);
    assertThat(mode(d)).isEqualTo("rwx------");
    assertThat(mode(PrivateFiles.directory(dir.resolve("a/b")))).isEqualTo("rwx------");
  }
}
