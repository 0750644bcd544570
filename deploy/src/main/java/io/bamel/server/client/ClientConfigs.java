package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a {@link ClientConfig}. Precedence, first set wins: flags ({@code --server}, {@code
 * --token-file}, {@code --ca-file}), then the environment ({@code BAMEL_SERVER}, {@code
 * BAMEL_TOKEN} (the token's value), {@code BAMEL_TOKEN_FILE}, {@code BAMEL_CA_FILE}), then the
 * config file, then the default server {@code http://127.0.0.1:8080} without a token.
 *
 * <p>The config file is {@code $BAMEL_CONFIG} if set, else {@code
 * $XDG_CONFIG_HOME/bamel/config.yaml}, else {@code ~/.config/bamel/config.yaml}; a missing file is
 * no error. It is flat YAML with the keys {@code server}, {@code tokenFile}, {@code caFile} and
 * {@code credentialsDir}; relative paths are relative to the file's directory. There is no key for
 * the token itself: it lives in its own file (mode 0600), never in the config or on a command line.
 */
public final class ClientConfigs {

  /** The server used when nothing names one. */
  public static final String DEFAULT_SERVER = "http://127.0.0.1:8080";

  private static final Set<String> KEYS = Set.of("server", "tokenFile", "caFile", "credentialsDir");

  private ClientConfigs() {}

  /** What the command line says; null where it says nothing. */
  public record Flags(String server, Path tokenFile, Path caFile, Path credentialsDir) {}

  /** The config file's path for this environment. */
  public static Path configFile(ClientEnvironment environment) {
    Map<String, String> env = environment.env();
    String explicit = env.get("BAMEL_CONFIG");
    if (explicit != null && !explicit.isBlank()) {
      return Path.of(explicit);
    }
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base =
        xdg != null && !xdg.isBlank() ? Path.of(xdg) : environment.home().resolve(".config");
    return base.resolve("bamel").resolve("config.yaml");
  }

  /** Reads the config file (an empty map when it does not exist) and resolves. */
  public static ClientConfig load(ClientEnvironment environment, Flags flags) {
    Path file = configFile(environment);
    Map<String, String> values = read(file);
    return resolve(values, file.toAbsolutePath().getParent(), environment.env(), flags);
  }

  /**
   * Resolves from the config file's values ({@code fileDir} anchors its relative paths), the
   * environment and the flags; reads the token file if one is chosen.
   */
  public static ClientConfig resolve(
      Map<String, String> file, Path fileDir, Map<String, String> env, Flags flags) {
    String server = first(flags.server(), env.get("BAMEL_SERVER"), file.get("server"));
    URI uri = serverUri(server == null ? DEFAULT_SERVER : server);
    String token = null;
    String tokenSource = null;
    Path tokenFile = null;
    if (flags.tokenFile() != null) {
      tokenFile = flags.tokenFile();
    } else if (present(env.get("BAMEL_TOKEN"))) {
      token = env.get("BAMEL_TOKEN").strip();
      tokenSource = "BAMEL_TOKEN";
    } else if (present(env.get("BAMEL_TOKEN_FILE"))) {
      tokenFile = Path.of(env.get("BAMEL_TOKEN_FILE"));
    } else if (present(file.get("tokenFile"))) {
      tokenFile = anchored(fileDir, file.get("tokenFile"));
    }
    if (tokenFile != null) {
      token = readToken(tokenFile);
      tokenSource = tokenFile.toString();
    }
    Path ca =
        flags.caFile() != null
            ? flags.caFile()
            : present(env.get("BAMEL_CA_FILE"))
                ? Path.of(env.get("BAMEL_CA_FILE"))
                : present(file.get("caFile")) ? anchored(fileDir, file.get("caFile")) : null;
    Path credentials =
        flags.credentialsDir() != null
            ? flags.credentialsDir()
            : present(file.get("credentialsDir"))
                ? anchored(fileDir, file.get("credentialsDir"))
                : null;
    return new ClientConfig(uri, token, tokenSource, ca, credentials);
  }

  /** The config file's keys and values; an empty map when the file does not exist. */
  static Map<String, String> read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException e) {
      throw new ClientException("cannot read " + file + ": " + e.getMessage());
    }
    return parse(new String(bytes, StandardCharsets.UTF_8), file.toString());
  }

  /** Parses the flat YAML of a config file; an unknown key or a nested value is an error. */
  static Map<String, String> parse(String yaml, String name) {
    JsonNode root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
    } catch (IOException e) {
      throw new ClientException(name + " is not valid YAML: " + firstLine(e.getMessage()));
    }
    Map<String, String> values = new LinkedHashMap<>();
    if (root == null || root.isMissingNode() || root.isNull()) {
      return values;
    }
    if (!root.isObject()) {
      throw new ClientException(name + ": expected keys " + sorted());
    }
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!KEYS.contains(e.getKey())) {
        String hint = e.getKey().equals("token") ? " (put the token in a file: tokenFile)" : "";
        throw new ClientException(
            name + ": unknown key " + e.getKey() + hint + "; known keys: " + sorted());
      }
      if (!e.getValue().isValueNode()) {
        throw new ClientException(name + ": " + e.getKey() + " must be a string");
      }
      if (!e.getValue().isNull()) {
        values.put(e.getKey(), e.getValue().asText());
      }
    }
    return values;
  }

  private static String sorted() {
    return String.join(", ", KEYS.stream().sorted().toList());
  }

  private static URI serverUri(String server) {
    String s = server.strip();
    URI uri;
    try {
      uri = URI.create(s);
    } catch (IllegalArgumentException e) {
      throw new ClientException("server " + s + " is not a URL such as " + DEFAULT_SERVER);
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw new ClientException("server " + s + " is not a URL such as " + DEFAULT_SERVER);
    }
    return uri;
  }

  private static String readToken(Path file) {
    try {
      String token = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (token.isEmpty()) {
        throw new ClientException("the token file " + file + " is empty");
      }
      return token;
    } catch (IOException e) {
      throw new ClientException("cannot read the token file " + file + ": " + reason(e));
    }
  }

  private static String reason(IOException e) {
    return e instanceof NoSuchFileException ? "no such file" : e.getClass().getSimpleName();
  }

  private static Path anchored(Path dir, String value) {
    Path p = Path.of(value);
    return p.isAbsolute() || dir == null ? p : dir.resolve(p);
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }

  private static String first(String... values) {
    for (String v : values) {
      if (present(v)) {
        return v;
      }
    }
    return null;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
