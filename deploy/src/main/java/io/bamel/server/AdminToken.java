package io.bamel.server;

import io.bamel.inventory.api.TokenStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin token of a local (embedded etcd) server: a fresh random token at every start, whose
 * SHA-256 replaces the {@code generated-admin} line of the tokens file (other lines are kept). The
 * token itself is only returned, for the caller to print once; it is never stored or logged.
 */
final class AdminToken {

  static final String NAME = "generated-admin";

  private AdminToken() {}

  /** Generates a token, records its hash in {@code tokensFile}, and returns the token. */
  static String rotate(Path tokensFile) throws IOException {
    String token = TokenStore.newToken();
    List<String> lines = new ArrayList<>();
    if (Files.exists(tokensFile)) {
      for (String line : Files.readAllLines(tokensFile, StandardCharsets.UTF_8)) {
        if (!line.strip().startsWith(NAME + " ")) {
          lines.add(line);
        }
      }
    } else {
      lines.add("# bamel API tokens: name scope sha256:hex (hashes only; see docs/api.md)");
    }
    lines.add(TokenStore.line(NAME, "admin", token));
    Path parent = tokensFile.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path tmp = Files.createTempFile(parent, ".tokens", ".tmp");
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the directory's permissions apply.
    }
    Files.write(tmp, lines, StandardCharsets.UTF_8);
    Files.move(
        tmp,
        tokensFile,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return token;
  }
}
