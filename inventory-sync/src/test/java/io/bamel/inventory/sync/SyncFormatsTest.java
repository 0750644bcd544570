package io.bamel.inventory.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncFormatsTest {

  private static final ClassLoader TESTS = SyncFormatsTest.class.getClassLoader();

  @Test
  void aFormatListedInMetaInfServicesIsFoundByItsName() {
    SyncFormats formats = SyncFormats.load(TESTS);

    assertThat(formats.names()).containsExactly("empty");
    assertThat(formats.find("empty")).get().isInstanceOf(EmptyFormat.class);
    assertThat(formats.find("netbox")).isEmpty();
    assertThat(formats.find("empty").get().partial(JsonNodeFactory.instance.objectNode()))
        .isPresent();
  }

  @Test
  void aDocumentThatIsNotTheEnvelopeFailsWithTheFieldAtFault() {
    SyncFormat empty = SyncFormats.load(TESTS).find("empty").orElseThrow();

    assertThatThrownBy(() -> empty.parse(JsonNodeFactory.instance.arrayNode()))
        .isInstanceOfSatisfying(
            SyncInputException.class,
            e -> {
              assertThat(e.field()).isEmpty();
              assertThat(e.getMessage()).isEqualTo("must be a JSON object");
            });
  }

  @Test
  void twoFormatsWithOneNameFailInsteadOfTheClassPathOrderPickingOne(@TempDir Path dir)
      throws Exception {
    Path services = dir.resolve("META-INF/services/" + SyncFormat.class.getName());
    Files.createDirectories(services.getParent());
    Files.writeString(services, EmptyFormatTwin.class.getName() + "\n");

    try (URLClassLoader both = new URLClassLoader(new URL[] {dir.toUri().toURL()}, TESTS)) {
      assertThatThrownBy(() -> SyncFormats.load(both))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("two sync formats are named empty")
          .hasMessageContaining(EmptyFormat.class.getName())
          .hasMessageContaining(EmptyFormatTwin.class.getName());
    }
  }
}
