package io.bamel.power.wol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Wake-on-LAN power-off commands a server knows, by name: the only programs bamel runs to
 * switch a machine off. A node's {@code wakeOnLan.powerOffCommand} names one of them; no command
 * text ever comes from the inventory. Immutable and pure once loaded.
 *
 * <p>The file (the server's {@code wakeOnLan.powerOffCommandsFile}) is YAML, a mapping from name to
 * argument list:
 *
 * <pre>
 * ssh-poweroff: [/usr/bin/ssh, -i, /etc/bamel/ssh/id_ed25519, -l, bamel, "{host}", sudo, poweroff]
 * site-off: [/usr/local/bin/site-off, --mac, "{mac}", --node, "{node}"]
 * </pre>
 *
 * <ul>
 *   <li>Names match {@code [a-z0-9][a-z0-9._-]{0,62}}.
 *   <li>The list is an argv, run without a shell: its first element is an absolute path.
 *   <li>Placeholders are whole arguments only: {@code {host}} (the host of the node's {@code
 *       mgmtAddress}), {@code {address}} (the {@code mgmtAddress} as written), {@code {mac}} (its
 *       {@code macAddress}) and {@code {node}} (its id). Each value becomes exactly one argument;
 *       any other {@code {...}}, or a placeholder inside a longer argument, is refused when the
 *       file is read. In YAML a placeholder is quoted ({@code "{host}"}): unquoted it would be a
 *       mapping.
 * </ul>
 */
public final class PowerOffCommands {

  /** Placeholder name: the host of the node's {@code mgmtAddress}. */
  public static final String HOST = "host";

  /** Placeholder name: the node's {@code mgmtAddress} as written. */
  public static final String ADDRESS = "address";

  /** Placeholder name: the node's {@code macAddress}. */
  public static final String MAC = "mac";

  /** Placeholder name: the node's id. */
  public static final String NODE = "node";

  /** Every placeholder name. */
  public static final Set<String> PLACEHOLDERS = Set.of(HOST, ADDRESS, MAC, NODE);

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
  private static final Pattern BRACES = Pattern.compile("\\{([^{}]*)}");
  private static final PowerOffCommands EMPTY = new PowerOffCommands(Map.of());

  private final Map<String, List<String>> commands;

  private PowerOffCommands(Map<String, List<String>> commands) {
    this.commands = Collections.unmodifiableMap(new TreeMap<>(commands));
  }

  /** No command at all: every Wake-on-LAN power-off is refused. */
  public static PowerOffCommands empty() {
    return EMPTY;
  }

  /** Whether {@code name} is a valid command name. */
  public static boolean validName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /**
   * Reads and checks a commands file.
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException naming the file and the offending command when it is malformed
   */
  public static PowerOffCommands load(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses and checks the YAML text of a commands file (an empty document has no command).
   *
   * @throws IllegalArgumentException naming the offending command when it is malformed
   */
  public static PowerOffCommands parse(String yaml) {
    JsonNode root;
    try {
      ObjectMapper mapper =
          new ObjectMapper(
              YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
      root = mapper.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "not valid YAML"
              + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")")
              + ": "
              + e.getOriginalMessage(),
          e);
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return EMPTY;
    }
    if (!root.isObject()) {
      throw new IllegalArgumentException(
          "must be a mapping from command name to argument list, such as"
              + " 'ssh-poweroff: [/usr/bin/ssh, {host}, poweroff]'");
    }
    Map<String, List<String>> commands = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : root.properties()) {
      String name = entry.getKey();
      JsonNode value = entry.getValue();
      if (!value.isArray()) {
        throw new IllegalArgumentException(
            "power-off command '" + name + "' must be a list of arguments");
      }
      List<String> argv = new ArrayList<>();
      for (JsonNode arg : value) {
        if (arg.isObject() && arg.size() == 1 && PLACEHOLDERS.contains(arg.fieldNames().next())) {
          throw new IllegalArgumentException(
              "power-off command '"
                  + name
                  + "': argument "
                  + (argv.size() + 1)
                  + " is a YAML mapping; quote the placeholder: \"{"
                  + arg.fieldNames().next()
                  + "}\"");
        }
        if (!arg.isValueNode() || arg.isNull()) {
          throw new IllegalArgumentException(
              "power-off command '"
                  + name
                  + "': argument "
                  + (argv.size() + 1)
                  + " must be a single value, not a list, a mapping or null");
        }
        argv.add(arg.asText());
      }
      commands.put(name, argv);
    }
    return of(commands);
  }

  /**
   * Commands from a map of name to argv, checked.
   *
   * @throws IllegalArgumentException naming the offending command when one is malformed
   */
  public static PowerOffCommands of(Map<String, List<String>> commands) {
    Map<String, List<String>> checked = new LinkedHashMap<>();
    commands.forEach((name, argv) -> checked.put(name, List.copyOf(check(name, argv))));
    return new PowerOffCommands(checked);
  }

  private static List<String> check(String name, List<String> argv) {
    if (!validName(name)) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not a valid power-off command name (lowercase letters, digits, '.', '_'"
              + " and '-', starting with a letter or digit, at most 63 characters)");
    }
    if (argv == null || argv.isEmpty()) {
      throw new IllegalArgumentException(
          "power-off command '" + name + "' has no arguments (want [/absolute/program, args...])");
    }
    for (int i = 0; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (arg == null || arg.indexOf('\0') >= 0) {
        throw new IllegalArgumentException(
            "power-off command '" + name + "': argument " + (i + 1) + " is empty or holds NUL");
      }
      if (placeholder(arg) != null) {
        if (i == 0) {
          throw new IllegalArgumentException(
              "power-off command '" + name + "': the program must be a fixed absolute path");
        }
        continue;
      }
      Matcher braces = BRACES.matcher(arg);
      if (braces.find()) {
        String inner = braces.group(1);
        throw new IllegalArgumentException(
            "power-off command '"
                + name
                + "': argument "
                + (i + 1)
                + " '"
                + arg
                + "' "
                + (PLACEHOLDERS.contains(inner)
                    ? "uses {"
                        + inner
                        + "} inside a longer argument; a placeholder must be a whole"
                        + " argument"
                    : "holds {"
                        + inner
                        + "}, which is not a placeholder (known: {host},"
                        + " {address}, {mac}, {node})"));
      }
    }
    if (!argv.get(0).startsWith("/")) {
      throw new IllegalArgumentException(
          "power-off command '"
              + name
              + "': the program '"
              + argv.get(0)
              + "' must be an absolute path (no shell, no PATH search)");
    }
    return argv;
  }

  /** The placeholder name when {@code arg} is exactly a known {@code {name}}, or {@code null}. */
  private static String placeholder(String arg) {
    if (arg.length() > 2 && arg.startsWith("{") && arg.endsWith("}")) {
      String name = arg.substring(1, arg.length() - 1);
      return PLACEHOLDERS.contains(name) ? name : null;
    }
    return null;
  }

  /** The command names, sorted. */
  public Set<String> names() {
    return commands.keySet();
  }

  /**
   * The argv of command {@code name} with each placeholder replaced by its value in {@code
   * substitutions} (keys {@link #HOST}, {@link #ADDRESS}, {@link #MAC}, {@link #NODE}); empty when
   * there is no such command.
   *
   * @throws IllegalArgumentException when the command uses a placeholder the substitutions have no
   *     value for, or a value that cannot safely be one argument (blank, starting with {@code -},
   *     holding control characters)
   */
  public Optional<List<String>> argv(String name, Map<String, String> substitutions) {
    List<String> template = name == null ? null : commands.get(name);
    if (template == null) {
      return Optional.empty();
    }
    List<String> argv = new ArrayList<>(template.size());
    for (String arg : template) {
      String key = placeholder(arg);
      if (key == null) {
        argv.add(arg);
        continue;
      }
      String value = substitutions.get(key);
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(
            "power-off command '" + name + "' uses {" + key + "}, and the node has none");
      }
      if (value.startsWith("-") || value.chars().anyMatch(c -> c < ' ' || c == 0x7f)) {
        throw new IllegalArgumentException(
            "power-off command '"
                + name
                + "': the node's {"
                + key
                + "} value cannot be passed as one argument");
      }
      argv.add(value);
    }
    return Optional.of(List.copyOf(argv));
  }
}
