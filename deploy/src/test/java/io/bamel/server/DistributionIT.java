package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The distribution {@code mvn package} builds ({@code deploy/target/bamel}, copied to {@code
 * /opt/bamel} on a host) holds what the systemd unit names: the launcher and the documentation.
 */
class DistributionIT {

  @Test
  void holdsTheLauncherAndTheDocumentationTheSystemdUnitNames() throws Exception {
    Path home = BamelProcess.launcher().getParent().getParent();
    String unit = Files.readString(Path.of("systemd/bamel.service"));
    Matcher docs = Pattern.compile("(?m)^Documentation=file:///opt/bamel/(\\S+)$").matcher(unit);
    assertThat(docs.find()).as(unit).isTrue();
    assertThat(home.resolve(docs.group(1))).isRegularFile();
    Matcher exec = Pattern.compile("(?m)^ExecStart=/opt/bamel/(\\S+) ").matcher(unit);
    assertThat(exec.find()).as(unit).isTrue();
    assertThat(Files.isExecutable(home.resolve(exec.group(1)))).isTrue();
    assertThat(home.resolve("docs/operations.md")).content().contains("# Operations");
    assertThat(home.resolve("docs/README.md")).isRegularFile();
  }
}
