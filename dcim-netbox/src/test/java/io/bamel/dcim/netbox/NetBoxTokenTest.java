package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NetBoxTokenTest {

  private static final String V1 = "0123456789abcdef0123456789ABCDEF01234567";
  // As NetBox 4.5+ generates a v1 token: 40 of string.ascii_letters + string.digits.
  private static final String V1_45 = "Zq8mXv2LpR4tNw7YbK1cHs9dGf3jUe6aTo0iWx5Q";
  private static final String V2 = "nbt_jmEaR2a9bQGn.c9ikyDRw46SMH8JeUrBURGKDuNw8imW15nGkFxoE";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        V1 + "                  | Token " + V1 + "  | 1",
        "Token " + V1 + "       | Token " + V1 + "  | 1",
        "token   " + V1 + "     | Token " + V1 + "  | 1",
        V1_45 + "               | Token " + V1_45 + " | 1",
        V2 + "                  | Bearer " + V2 + " | 2",
        "Bearer " + V2 + "      | Bearer " + V2 + " | 2",
      })
  void sendsEachVersionWithItsKeyword(String text, String header, int version) {
    NetBoxToken t = NetBoxToken.parse(text, "t");
    assertThat(t.header()).isEqualTo(header);
    assertThat(t.version()).isEqualTo(version);
    assertThat(t.toString()).isEqualTo("NetBox API token (v" + version + ")");
  }

  @ParameterizedTest
  @CsvSource({
    "''",
    "abc",
    "Bearer " + V1,
    "Token " + V2,
    "nbt_nokeydot",
    V1 + "0",
    "nbt_short.c9ikyDRw46SMH8JeUrBURGKDuNw8imW15nGkFxoE",
    V1_45 + "!"
  })
  void refusesWhatIsNoTokenWithoutShowingIt(String text) {
    assertThatThrownBy(() -> NetBoxToken.parse(text, "/etc/bamel/netbox-token"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("/etc/bamel/netbox-token holds no NetBox API token")
        .hasMessageNotContaining(text.isEmpty() ? "\u0000" : text)
        .hasMessageEndingWith(NetBoxToken.EXPECTED)
        .hasMessageNotContaining("\n");
  }

  @Test
  void readsAFileWithANewline(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, V2 + "\n");
    assertThat(NetBoxToken.read(file).header()).isEqualTo("Bearer " + V2);
    assertThatThrownBy(() -> NetBoxToken.read(dir.resolve("missing")))
        .hasMessageContaining("cannot read the NetBox token file");
  }
}
