package io.bamel.power.credentials;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * BMC credentials kept in files, laid out as a mounted Kubernetes Secret: one directory per
 * credential name under a root, holding the files {@code username}, {@code password} and/or {@code
 * token}. Trailing newlines are stripped. Files are read on every call, so a rotated Secret takes
 * effect at once. Names are validated (lowercase letters, digits, {@code -}, {@code .} and {@code
 * _}, at most 253 characters; never {@code .} or {@code ..}) so that a name can never escape the
 * root.
 */
public final class CredentialStore implements CredentialSource {

  /** The file holding the user name. */
  public static final String USERNAME = "username";

  /** The file holding the password. */
  public static final String PASSWORD = "password";

  /** The file holding an API token. */
  public static final String TOKEN = "token";

  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9._-]{0,251}[a-z0-9])?");

  private final Path root;

  /** A store rooted at {@code root}. */
  public CredentialStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Whether {@code name} is a valid credential name. */
  public static boolean validName(String name) {
    return name != null && NAME.matcher(name).matches() && !name.contains("..");
  }

  @Override
  public Credentials credentials(String name) throws PowerException {
    if (!validName(name)) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, "invalid credential name '" + name + "'");
    }
    Path dir = root.resolve(name).normalize();
    if (!dir.startsWith(root) || !Files.isDirectory(dir)) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, "no credential named '" + name + "'");
    }
    return fromDirectory(dir);
  }

  /**
   * Reads the files of one credential directory (the layout of a mounted Secret; also what {@code
   * bamel bmc --credentials DIR} reads).
   *
   * @throws TerminalPowerException when the directory holds neither a password nor a token
   */
  public static Credentials fromDirectory(Path dir) throws TerminalPowerException {
    try {
      Credentials credentials =
          new Credentials(read(dir, USERNAME), read(dir, PASSWORD), read(dir, TOKEN));
      if (credentials.secret().isEmpty() && credentials.apiToken().isEmpty()) {
        throw new TerminalPowerException(
            PowerException.Reason.BAD_CREDENTIALS,
            "credential directory " + dir + " holds neither a password nor a token file");
      }
      return credentials;
    } catch (IOException e) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS,
          "cannot read credential directory " + dir + ": " + e.getClass().getSimpleName());
    }
  }

  private static String read(Path dir, String file) throws IOException {
    Path path = dir.resolve(file);
    if (!Files.isRegularFile(path)) {
      return null;
    }
    String value = Files.readString(path, StandardCharsets.UTF_8);
    int end = value.length();
    while (end > 0 && (value.charAt(end - 1) == '\n' || value.charAt(end - 1) == '\r')) {
      end--;
    }
    return value.substring(0, end);
  }
}
