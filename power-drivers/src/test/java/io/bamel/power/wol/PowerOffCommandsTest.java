package io.bamel.power.wol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PowerOffCommandsTest {

  private static final Map<String, String> NODE =
      Map.of(
          PowerOffCommands.HOST, "192.0.2.7",
          PowerOffCommands.ADDRESS, "192.0.2.7:22",
          PowerOffCommands.MAC, "52:54:00:ab:cd:ef",
          PowerOffCommands.NODE, "node-7");

  @Test
  void loadsNamedArgvListsAndSubstitutesWholeArguments(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("off.yaml");
    Files.writeString(
        file,
        """
        # site power-off commands
        ssh-poweroff: [/usr/bin/ssh, -i, /etc/bamel/id, -p, 22, -l, bamel, "{host}", sudo, poweroff]
        site.off_2:
          - /usr/local/bin/site-off
          - --mac
          - "{mac}"
          - "{node}"
          - "{address}"
        """);
    PowerOffCommands commands = PowerOffCommands.load(file);

    assertThat(commands.names()).containsExactly("site.off_2", "ssh-poweroff");
    assertThat(commands.argv("ssh-poweroff", NODE))
        .contains(
            List.of(
                "/usr/bin/ssh",
                "-i",
                "/etc/bamel/id",
                "-p",
                "22",
                "-l",
                "bamel",
                "192.0.2.7",
                "sudo",
                "poweroff"));
    assertThat(commands.argv("site.off_2", NODE))
        .contains(
            List.of(
                "/usr/local/bin/site-off", "--mac", "52:54:00:ab:cd:ef", "node-7", "192.0.2.7:22"));
    assertThat(commands.argv("touch /tmp/x; id", NODE)).isEmpty();
    assertThat(commands.argv(null, NODE)).isEmpty();
    assertThat(PowerOffCommands.empty().names()).isEmpty();
    assertThat(PowerOffCommands.parse("")).satisfies(c -> assertThat(c.names()).isEmpty());
    assertThat(PowerOffCommands.parse("# nothing yet\n").names()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          name with a space         | 'a b: [/bin/true]'                          | 'a b' is not a valid power-off command name
          upper-case name           | 'Off: [/bin/true]'                          | 'Off' is not a valid power-off command name
          name too long             | 'a12345678901234567890123456789012345678901234567890123456789012345: [/bin/true]' | is not a valid power-off command name
          not a list                | 'off: /sbin/poweroff'                       | power-off command 'off' must be a list of arguments
          empty list                | 'off: []'                                   | power-off command 'off' has no arguments
          relative program          | 'off: [ssh, host]'                          | power-off command 'off': the program 'ssh' must be an absolute path
          shell line as one arg     | 'off: [sh -c poweroff]'                     | the program 'sh -c poweroff' must be an absolute path
          placeholder as program    | 'off: [''{host}'', x]'                      | the program must be a fixed absolute path
          partial placeholder       | 'off: [/usr/bin/ssh, ''root@{host}'']'      | power-off command 'off': argument 2 'root@{host}' uses {host} inside a longer argument
          unknown placeholder       | 'off: [/usr/bin/ssh, ''{password}'']'       | holds {password}, which is not a placeholder
          unquoted placeholder      | 'off: [/usr/bin/ssh, {host}]'               | argument 2 is a YAML mapping; quote the placeholder: "{host}"
          nested list               | 'off: [/usr/bin/ssh, [a, b]]'               | argument 2 must be a single value
          null argument             | 'off: [/usr/bin/ssh, null]'                 | argument 2 must be a single value
          not a mapping             | '- /usr/bin/ssh'                            | must be a mapping from command name to argument list
          duplicate name            | 'off: [/bin/true]\\noff: [/bin/false]'       | not valid YAML
          """)
  void refusesMalformedCommandsWithAMessageNamingThem(String what, String yaml, String expected) {
    assertThatThrownBy(() -> PowerOffCommands.parse(yaml.replace("\\n", "\n")))
        .as(what)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(expected);
  }

  @Test
  void aFileErrorNamesTheFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("off.yaml"), "off: [poweroff]\n");
    assertThatThrownBy(() -> PowerOffCommands.load(file))
        .hasMessageStartingWith(file + ": power-off command 'off'");
  }

  @Test
  void aMissingOrUnsafeValueIsRefusedNotPassed() {
    PowerOffCommands commands =
        PowerOffCommands.of(Map.of("ssh-off", List.of("/usr/bin/ssh", "{host}", "poweroff")));
    assertThatThrownBy(() -> commands.argv("ssh-off", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("power-off command 'ssh-off' uses {host}, and the node has none");
    assertThatThrownBy(() -> commands.argv("ssh-off", Map.of("host", "-oProxyCommand=id")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "power-off command 'ssh-off': the node's {host} value cannot be passed as one argument");
    assertThatThrownBy(() -> commands.argv("ssh-off", Map.of("host", "a\nb")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource({
    "192.0.2.7, 192.0.2.7",
    "192.0.2.7:22, 192.0.2.7",
    "node-7.example.com, node-7.example.com",
    "[2001:db8::7]:22, 2001:db8::7",
    "2001:db8::7, 2001:db8::7",
    "https://bmc.example.com:8443/redfish/v1, bmc.example.com",
    "https://[2001:db8::9]/x, 2001:db8::9",
  })
  void theHostOfAManagementAddress(String address, String host) {
    assertThat(WolDriver.hostOf(address)).isEqualTo(host);
  }
}
