package io.bamel.server;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.server.config.ConfigException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reading the API tokens file at start: any problem is one line naming the file (and the line of a
 * malformed entry, never its content), which {@code bamel server} prints before exiting with code
 * 2; a file its group or others can read is a warning.
 */
final class TokensFile {

  private TokensFile() {}

  /**
   * Loads the tokens in {@code file}.
   *
   * @throws ConfigException one line naming the file, and the line for a malformed entry
   */
  static TokenStore load(Path file) {
    try {
      return TokenStore.load(file);
    } catch (IllegalArgumentException e) {
      // TokenStore names the file and the line ("path:12: ...") and never the line's content.
      throw new ConfigException("tokens file " + e.getMessage());
    } catch (IOException e) {
      throw new ConfigException("cannot read tokens file " + file + ": " + reason(e));
    }
  }

  /** The warning for a tokens file its group or others can read, if it is one. */
  static Optional<String> modeWarning(Path file) {
    try {
      if (PrivateFiles.readableByOthers(file)) {
        return Optional.of(
            "tokens file "
                + file
                + " is readable by its group or others: anyone who can read it may try the"
                + " token hashes; make it readable by bamel's user only (chmod 600 "
                + file
                + ")");
      }
    } catch (IOException e) {
      // load() has read it; a mode that cannot be read now is not worth a second message.
    }
    return Optional.empty();
  }

  /** A person's reason for an I/O failure, without Java class names. */
  static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? "read error" : e.getMessage();
  }
}
