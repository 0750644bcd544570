package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientConfigsTest {

  private static final ClientConfigs.Flags NONE = new ClientConfigs.Flags(null, null, null, null);

  @TempDir Path dir;

  @Test
  void withNothingSetTheDefaultServerWithoutToken() {
    ClientConfig c = ClientConfigs.resolve(Map.of(), dir, Map.of(), NONE);
    assertThat(c.serverText()).isEqualTo("http://127.0.0.1:8080");
    assertThat(c.token()).isNull();
  }

  @Test
  void flagBeatsEnvironmentBeatsFile() throws Exception {
    Path fileToken = Files.writeString(dir.resolve("file-token"), "from-file\n");
    Path flagToken = Files.writeString(dir.resolve("flag-token"), "from-flag");
    Map<String, String> file = Map.of("server", "http://192.0.2.1:8080", "tokenFile", "file-token");
    Map<String, String> env =
        Map.of("BAMEL_SERVER", "http://192.0.2.2:8080", "BAMEL_TOKEN", "from-env");

    ClientConfig fromFile = ClientConfigs.resolve(file, dir, Map.of(), NONE);
    assertThat(fromFile.serverText()).isEqualTo("http://192.0.2.1:8080");
    assertThat(fromFile.token()).isEqualTo("from-file");
    assertThat(fromFile.tokenSource()).isEqualTo(fileToken.toString());

    ClientConfig fromEnv = ClientConfigs.resolve(file, dir, env, NONE);
    assertThat(fromEnv.serverText()).isEqualTo("http://192.0.2.2:8080");
    assertThat(fromEnv.token()).isEqualTo("from-env");
    assertThat(fromEnv.tokenSource()).isEqualTo("BAMEL_TOKEN");

    ClientConfig fromFlags =
        ClientConfigs.resolve(
            file,
            dir,
            env,
            new ClientConfigs.Flags("http://127.0.0.1:9999", flagToken, null, null));
    assertThat(fromFlags.serverText()).isEqualTo("http://127.0.0.1:9999");
    assertThat(fromFlags.token()).isEqualTo("from-flag");
  }

  @Test
  void relativePathsInTheFileAreRelativeToItsDirectory() throws Exception {
    Files.writeString(dir.resolve("t"), "x");
    ClientConfig c =
        ClientConfigs.resolve(
            Map.of("tokenFile", "t", "caFile", "ca.pem", "credentialsDir", "creds"),
            dir,
            Map.of(),
            NONE);
    assertThat(c.caFile()).isEqualTo(dir.resolve("ca.pem"));
    assertThat(c.credentialsDir()).isEqualTo(dir.resolve("creds"));
  }

  @Test
  void theFileIsFoundThroughBamelConfigXdgOrHome() throws Exception {
    Path home = dir.resolve("home");
    ClientEnvironment plain = new ClientEnvironment(Map.of(), home, Clock.systemUTC());
    assertThat(ClientConfigs.configFile(plain))
        .isEqualTo(home.resolve(".config/bamel/config.yaml"));
    ClientEnvironment xdg =
        new ClientEnvironment(Map.of("XDG_CONFIG_HOME", "/x"), home, Clock.systemUTC());
    assertThat(ClientConfigs.configFile(xdg)).isEqualTo(Path.of("/x/bamel/config.yaml"));

    Path config = Files.writeString(dir.resolve("c.yaml"), "server: http://127.0.0.1:7\n");
    ClientEnvironment explicit =
        new ClientEnvironment(Map.of("BAMEL_CONFIG", config.toString()), home, Clock.systemUTC());
    assertThat(ClientConfigs.load(explicit, NONE).serverText()).isEqualTo("http://127.0.0.1:7");
    assertThat(ClientConfigs.load(plain, NONE).serverText()).isEqualTo("http://127.0.0.1:8080");
  }

  @Test
  void aTokenKeyInTheFileIsRefusedAndPointsToTokenFile() {
    assertThatThrownBy(() -> ClientConfigs.parse("token: s3cret-value\n", "config.yaml"))
        .isInstanceOf(ClientException.class)
        .hasMessageContaining("unknown key token")
        .hasMessageContaining("tokenFile")
        .hasMessageNotContaining("s3cret-value");
  }

  @Test
  void badServerAndMissingTokenFileAreClearErrors() {
    assertThatThrownBy(
            () -> ClientConfigs.resolve(Map.of("server", "127.0.0.1:8080"), dir, Map.of(), NONE))
        .hasMessageContaining("not a URL");
    assertThatThrownBy(
            () ->
                ClientConfigs.resolve(
                    Map.of(), dir, Map.of("BAMEL_TOKEN_FILE", dir.resolve("no").toString()), NONE))
        .hasMessageContaining("cannot read the token file")
        .hasMessageContaining("no such file");
  }

  @Test
  void toStringNamesTheTokensSourceNotItsValue() {
    ClientConfig c =
        ClientConfigs.resolve(Map.of(), dir, Map.of("BAMEL_TOKEN", "s3cret-value"), NONE);
    assertThat(c.toString()).contains("BAMEL_TOKEN").doesNotContain("s3cret-value");
  }
}
