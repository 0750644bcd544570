package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No Redfish name is spelled both in the simulator's Java and in the driver's Java. A rename of a
 * Java constant once renamed a Redfish property in both, and the simulator kept agreeing with the
 * driver while every real BMC disagreed; the simulator takes its Redfish names from data ({@code
 * redfish-wire.yaml}, the profiles, DMTF's trees), so such a rename cannot reach it. A literal
 * looks like a Redfish name when it has no blank and starts with {@code @} or {@code #} followed by
 * a name, or is a PascalCase word ({@code PowerState}, {@code X-Auth-Token}, {@code
 * Base.1.8.NoValidSession}), or holds {@code /redfish/v1}. Comments are not code and are skipped.
 */
class SimWireNamesTest {

  private static final Path SIM = Path.of("src/main/java/io/bamel/power/sim");
  private static final Path DRIVER =
      Path.of("../power-drivers/src/main/java/io/bamel/power/redfish");

  private static final Pattern REDFISH_LIKE =
      Pattern.compile(
          "[@#][A-Za-z].*|[A-Z][A-Za-z0-9._@/-]*[a-z][A-Za-z0-9._@/#-]*|.*/redfish/v1.*");

  @Test
  void theSimulatorAndTheDriverShareNoRedfishName() throws IOException {
    Set<String> simulator = redfishLike(SIM);
    Set<String> driver = redfishLike(DRIVER);
    assertThat(driver).as("the scan reads the driver's sources").isNotEmpty();

    Set<String> shared = new TreeSet<>(simulator);
    shared.retainAll(driver);

    assertThat(shared)
        .as(
            "Redfish names in both %s and %s: the simulator must read them from its data",
            SIM, DRIVER)
        .isEmpty();
  }

  @Test
  void theScanFindsANameInCodeAndIgnoresComments() {
    String source =
        """
        class A {
          // "BmcPowerState" in a comment is not code
          /* "Boot" neither */
          String a = "PowerState";
          String b = "@odata.id", c = "#ComputerSystem.Reset", d = "/redfish/v1/Systems";
          String e = "GET", f = "the BMC says", g = "\\"Escaped\\"";
          char h = '"';
          String i = "X-Auth-Token";
        }
        """;

    assertThat(literals(source).stream().filter(l -> REDFISH_LIKE.matcher(l).matches()))
        .containsExactlyInAnyOrder(
            "PowerState",
            "@odata.id",
            "#ComputerSystem.Reset",
            "/redfish/v1/Systems",
            "X-Auth-Token");
  }

  private static Set<String> redfishLike(Path folder) throws IOException {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        for (String literal : literals(Files.readString(file, StandardCharsets.UTF_8))) {
          if (REDFISH_LIKE.matcher(literal).matches()) {
            names.add(literal);
          }
        }
      }
    }
    return names;
  }

  /** The string literals (text blocks included) of a Java source, comments skipped. */
  static List<String> literals(String source) {
    List<String> out = new ArrayList<>();
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        i = source.indexOf('\n', i);
        i = i < 0 ? n : i;
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        end = end < 0 ? n : end;
        out.add(source.substring(i + 3, end).strip());
        i = end + 3;
      } else if (c == '"' || c == '\'') {
        StringBuilder text = new StringBuilder();
        int j = i + 1;
        while (j < n && source.charAt(j) != c) {
          if (source.charAt(j) == '\\' && j + 1 < n) {
            j++;
          }
          text.append(source.charAt(j));
          j++;
        }
        if (c == '"') {
          out.add(text.toString());
        }
        i = j + 1;
      } else {
        i++;
      }
    }
    return out;
  }
}
