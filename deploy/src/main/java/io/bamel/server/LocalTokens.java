package io.bamel.server;

import io.bamel.inventory.api.security.TokenStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The API tokens of the embedded default. Every start makes a fresh admin token, writes it to the
 * admin token file (mode {@code 0600}: readable by its owner only; the token is never printed or
 * logged, only the file's path) and replaces the {@code local-admin} entry of the tokens file (also
 * {@code 0600}) with its hash, keeping any other entries an operator added.
 */
final class LocalTokens {

  static final String ADMIN = "local-admin";

  /**
   * The tokens in force and where the admin token is.
   *
   * @param tokens the tokens file's entries, the new admin token's hash among them
   * @param adminTokenFile the file holding the admin token (absolute)
   */
  record Generated(TokenStore tokens, Path adminTokenFile) {}

  private LocalTokens() {}

  /**
   * Makes a new admin token, writes it to {@code adminTokenFile} and its hash to {@code
   * tokensFile}.
   *
   * @throws io.bamel.server.config.ConfigException when the tokens file holds a malformed entry
   */
  static Generated withNewAdmin(Path tokensFile, Path adminTokenFile) throws IOException {
    String token = TokenStore.newToken();
    List<String> lines = new ArrayList<>();
    if (Files.exists(tokensFile)) {
      for (String line : Files.readAllLines(tokensFile, StandardCharsets.UTF_8)) {
        if (!line.strip().startsWith(ADMIN + " ")) {
          lines.add(line);
        }
      }
    } else {
      lines.add("# name scope sha256:hex -- bamel API tokens; see README");
    }
    lines.add(TokenStore.line(ADMIN, "admin", token));
    Path tokenFile = PrivateFiles.write(adminTokenFile, token + "\n");
    PrivateFiles.write(tokensFile, String.join("\n", lines) + "\n");
    return new Generated(TokensFile.load(tokensFile), tokenFile.normalize());
  }
}
