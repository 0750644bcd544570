package io.bamel.server;

import io.bamel.inventory.api.TokenStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The tokens file of the embedded default: every start replaces the {@code local-admin} entry with
 * the hash of a fresh token (printed once by the caller), keeping any other entries an operator
 * added. The file is readable by its owner only.
 */
final class LocalTokens {

  static final String ADMIN = "local-admin";

  private LocalTokens() {}

  static TokenStore withAdmin(Path file, String token) throws IOException {
    List<String> lines = new ArrayList<>();
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (!line.strip().startsWith(ADMIN + " ")) {
          lines.add(line);
        }
      }
    } else {
      Files.createDirectories(file.toAbsolutePath().getParent());
      lines.add("# name scope sha256:hex -- bamel API tokens; see README");
    }
    lines.add(TokenStore.line(ADMIN, "admin", token));
    Files.write(
        file,
        lines,
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING);
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: keep the default permissions.
    }
    return TokenStore.load(file);
  }
}
