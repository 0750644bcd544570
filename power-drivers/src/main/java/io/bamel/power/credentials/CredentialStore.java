package io.bamel.power.credentials;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * BMC credentials kept in files, laid out as a mounted Kubernetes Secret: one directory per
 * credential name under a root, holding the files {@code username}, {@code password} and/or {@code
 * token}, and optionally {@code allowed-hosts} ({@link AllowedHosts}: where the credential may be
 * sent). Trailing newlines are stripped. Files are read on every call, so a rotated Secret or a
 * changed allow-list takes effect at once. Names are validated (lowercase letters, digits, {@code
 * -}, {@code .} and {@code _}, at most 253 characters; never {@code .} or {@code ..}) so that a
 * name can never escape the root.
 *
 * <p>A credential without {@code allowed-hosts} may be sent to any host over https with its
 * certificate verified, unless the store requires an allow-list ({@link #CredentialStore(Path,
 * boolean)}): then it is sent nowhere.
 */
public final class CredentialStore implements CredentialSource {

  /** The file holding the user name. */
  public static final String USERNAME = "username";

  /** The file holding the password. */
  public static final String PASSWORD = "password";

  /** The file holding an API token. */
  public static final String TOKEN = "token";

  /** The file listing where the credential may be sent ({@link AllowedHosts}). */
  public static final String ALLOWED_HOSTS = "allowed-hosts";

  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9._-]{0,251}[a-z0-9])?");

  private final Path root;
  private final boolean requireAllowList;

  /** A store rooted at {@code root}; credentials without an allow-list go to any https host. */
  public CredentialStore(Path root) {
    this(root, false);
  }

  /**
   * A store rooted at {@code root}.
   *
   * @param requireAllowList refuse ({@link PowerException.Reason#NOT_ALLOWED}) to send a credential
   *     whose directory has no {@code allowed-hosts} file
   */
  public CredentialStore(Path root, boolean requireAllowList) {
    this.root = root.toAbsolutePath().normalize();
    this.requireAllowList = requireAllowList;
  }

  /**
   * A source for one credential directory, whatever name it is asked for (what {@code bamel bmc
   * --credentials DIR} uses): its secret and its {@code allowed-hosts} file, with the same rule as
   * a store that does not require an allow-list.
   */
  public static CredentialSource ofDirectory(Path dir) {
    return new CredentialSource() {
      @Override
      public Credentials credentials(String name) throws PowerException {
        return fromDirectory(dir);
      }

      @Override
      public AllowedHosts allowedHosts(String name) throws PowerException {
        return allowedHostsIn(dir, String.valueOf(dir.getFileName()), false);
      }
    };
  }

  /** Whether {@code name} is a valid credential name. */
  public static boolean validName(String name) {
    return name != null && NAME.matcher(name).matches() && !name.contains("..");
  }

  /** Whether this store refuses credentials that have no {@code allowed-hosts} file. */
  public boolean requiresAllowList() {
    return requireAllowList;
  }

  @Override
  public Credentials credentials(String name) throws PowerException {
    return fromDirectory(directory(name));
  }

  @Override
  public AllowedHosts allowedHosts(String name) throws PowerException {
    return allowedHostsIn(directory(name), name, requireAllowList);
  }

  /**
   * The names of the credentials under the root that have no {@code allowed-hosts} file, sorted
   * (for the start-up warning and the readiness detail); empty when the root cannot be listed.
   */
  public List<String> namesWithoutAllowList() {
    List<String> names = new ArrayList<>();
    try (Stream<Path> entries = Files.list(root)) {
      entries
          .filter(Files::isDirectory)
          .map(p -> String.valueOf(p.getFileName()))
          .filter(CredentialStore::validName)
          .filter(n -> !Files.exists(root.resolve(n).resolve(ALLOWED_HOSTS)))
          .sorted()
          .forEach(names::add);
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return List.copyOf(names);
  }

  private Path directory(String name) throws TerminalPowerException {
    if (!validName(name)) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, "invalid credential name '" + name + "'");
    }
    Path dir = root.resolve(name).normalize();
    if (!dir.startsWith(root) || !Files.isDirectory(dir)) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, "no credential named '" + name + "'");
    }
    return dir;
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
          PowerException.Reason.BAD_CREDENTIALS, "cannot read credential directory " + dir);
    }
  }

  /**
   * The allow-list in credential directory {@code dir} ({@link AllowedHosts#absent} without the
   * file).
   *
   * @throws TerminalPowerException {@link PowerException.Reason#NOT_ALLOWED} naming the credential
   *     and the line when the file is malformed or cannot be read
   */
  private static AllowedHosts allowedHostsIn(Path dir, String name, boolean required)
      throws TerminalPowerException {
    Path file = dir.resolve(ALLOWED_HOSTS);
    if (!Files.exists(file)) {
      return AllowedHosts.absent(required);
    }
    try {
      return AllowedHosts.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new TerminalPowerException(
          PowerException.Reason.NOT_ALLOWED,
          "credential '" + name + "': " + ALLOWED_HOSTS + " " + e.getMessage());
    } catch (IOException e) {
      throw new TerminalPowerException(
          PowerException.Reason.NOT_ALLOWED,
          "credential '" + name + "': cannot read its " + ALLOWED_HOSTS + " file");
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
