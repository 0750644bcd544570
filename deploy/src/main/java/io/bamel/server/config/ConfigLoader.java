package io.bamel.server.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.bamel.inventory.store.Codec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds a {@link ServerConfig} from, in increasing precedence: the defaults, a YAML file, the
 * environment ({@code BAMEL_*}), and flags. Unknown keys in the file, {@code BAMEL_} variables that
 * name no setting, and ill-typed values are errors that name the setting. The only {@code BAMEL_}
 * variables that are not settings are {@link #NOT_SETTINGS}.
 */
public final class ConfigLoader {

  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * {@code BAMEL_} variables that are read elsewhere and are not settings: {@code BAMEL_ETCD_BIN}
   * (the etcd binary of the embedded etcd) and {@code BAMEL_SKIP_IPMI} (the tests' switch for
   * machines without ipmi_sim, harmless in a developer's shell).
   */
  public static final Set<String> NOT_SETTINGS = Set.of("BAMEL_ETCD_BIN", "BAMEL_SKIP_IPMI");

  private ConfigLoader() {}

  /**
   * Loads the configuration.
   *
   * @param file the YAML file, or null
   * @param env the environment (usually {@code System.getenv()})
   * @param flags settings given as flags, by path ({@code http.port} to {@code "9090"})
   * @throws ConfigException naming the setting that is wrong
   */
  public static ServerConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
    ObjectNode tree = Codec.mapper().valueToTree(ServerConfig.DEFAULTS);
    if (file != null) {
      merge(tree, readFile(file), "");
    }
    Map<String, String> leaves = leafPaths(tree);
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (!e.getKey().startsWith("BAMEL_")) {
        continue;
      }
      String path = leaves.get(e.getKey());
      if (path != null) {
        set(tree, path, e.getValue(), "environment variable " + e.getKey());
      } else if (!NOT_SETTINGS.contains(e.getKey())) {
        throw new ConfigException(
            "unknown environment variable "
                + e.getKey()
                + ": it names no setting (BAMEL_ and a setting's path in upper snake case, such as"
                + " BAMEL_ETCD_CA_FILE; see the README's configuration table)");
      }
    }
    for (Map.Entry<String, String> e : flags.entrySet()) {
      set(tree, e.getKey(), e.getValue(), "flag for " + e.getKey());
    }
    try {
      ServerConfig config =
          Codec.mapper()
              .copy()
              .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .treeToValue(tree, ServerConfig.class);
      return ConfigValidation.check(config);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new ConfigException("invalid configuration: " + e.getOriginalMessage());
    }
  }

  /**
   * The environment variable of every setting: {@code BAMEL_ETCD_CA_FILE} to {@code etcd.caFile}.
   */
  public static Map<String, String> environmentNames() {
    return leafPaths(Codec.mapper().valueToTree(ServerConfig.DEFAULTS));
  }

  private static JsonNode readFile(Path file) {
    try {
      JsonNode node = YAML.readTree(Files.readString(file));
      if (node == null || node.isMissingNode() || node.isNull()) {
        return NODES.objectNode();
      }
      if (!node.isObject()) {
        throw new ConfigException(file + ": expected a mapping of settings");
      }
      return node;
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage());
    }
  }

  /** Merges {@code from} into {@code into}, rejecting keys the defaults do not have. */
  private static void merge(ObjectNode into, JsonNode from, String prefix) {
    for (Map.Entry<String, JsonNode> f : from.properties()) {
      String path = prefix.isEmpty() ? f.getKey() : prefix + "." + f.getKey();
      JsonNode current = into.get(f.getKey());
      if (current == null) {
        throw new ConfigException("unknown setting '" + path + "'");
      }
      if (current.isObject() && f.getValue().isObject()) {
        merge((ObjectNode) current, f.getValue(), path);
      } else if (current.isObject() && !f.getValue().isNull()) {
        throw new ConfigException("setting '" + path + "' must be a mapping");
      } else {
        into.set(f.getKey(), f.getValue());
      }
    }
  }

  private static void set(ObjectNode tree, String path, String value, String source) {
    String[] parts = path.split("\\.");
    ObjectNode node = tree;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode child = node.get(parts[i]);
      if (!(child instanceof ObjectNode o)) {
        throw new ConfigException("unknown setting '" + path + "' (" + source + ")");
      }
      node = o;
    }
    String leaf = parts[parts.length - 1];
    JsonNode current = node.get(leaf);
    if (current == null) {
      throw new ConfigException("unknown setting '" + path + "' (" + source + ")");
    }
    if (current.isArray()) {
      ArrayNode list = NODES.arrayNode();
      for (String item : value.split(",")) {
        if (!item.isBlank()) {
          list.add(item.trim());
        }
      }
      node.set(leaf, list);
    } else if (current.isFloatingPointNumber()) {
      try {
        double number = Double.parseDouble(value.trim());
        if (!Double.isFinite(number)) {
          throw new NumberFormatException(value);
        }
        node.set(leaf, NODES.numberNode(number));
      } catch (NumberFormatException e) {
        throw new ConfigException("setting '" + path + "' must be a number (" + source + ")");
      }
    } else if (current.isNumber()) {
      try {
        node.set(leaf, NODES.numberNode(Long.parseLong(value.trim())));
      } catch (NumberFormatException e) {
        throw new ConfigException("setting '" + path + "' must be a number (" + source + ")");
      }
    } else if (current.isBoolean()) {
      String v = value.trim().toLowerCase(Locale.ROOT);
      if (!v.equals("true") && !v.equals("false")) {
        throw new ConfigException("setting '" + path + "' must be true or false (" + source + ")");
      }
      node.set(leaf, NODES.booleanNode(Boolean.parseBoolean(v)));
    } else {
      node.set(leaf, NODES.textNode(value));
    }
  }

  private static Map<String, String> leafPaths(JsonNode tree) {
    Map<String, String> out = new LinkedHashMap<>();
    collect(tree, new ArrayList<>(), out);
    return out;
  }

  private static void collect(JsonNode node, List<String> path, Map<String, String> out) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        path.add(f.getKey());
        collect(f.getValue(), path, out);
        path.remove(path.size() - 1);
      }
      return;
    }
    StringBuilder env = new StringBuilder("BAMEL");
    for (String p : path) {
      env.append('_').append(p.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT));
    }
    out.put(env.toString(), String.join(".", path));
  }
}
