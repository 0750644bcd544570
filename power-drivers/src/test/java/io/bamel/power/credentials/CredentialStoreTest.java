package io.bamel.power.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CredentialStoreTest {

  @TempDir Path root;

  @Test
  void readsTheFilesOfASecretDirectoryAndStripsTrailingNewlines() throws Exception {
    Path dir = Files.createDirectories(root.resolve("rack-a-bmc"));
    Files.writeString(dir.resolve("username"), "admin\n");
    Files.writeString(dir.resolve("password"), "pa ss\r\n");
    Credentials credentials = new CredentialStore(root).credentials("rack-a-bmc");
    assertThat(credentials.username()).isEqualTo("admin");
    assertThat(credentials.password()).isEqualTo("pa ss");
    assertThat(credentials.apiToken()).isEmpty();
  }

  @Test
  void picksUpARotatedSecret() throws Exception {
    Path dir = Files.createDirectories(root.resolve("pve"));
    Files.writeString(dir.resolve("token"), "one");
    CredentialStore store = new CredentialStore(root);
    assertThat(store.credentials("pve").token()).isEqualTo("one");
    Files.writeString(dir.resolve("token"), "two");
    assertThat(store.credentials("pve").token()).isEqualTo("two");
  }

  @Test
  void toStringNeverShowsTheSecret() {
    assertThat(new Credentials("admin", "hunter2", "tok-123").toString())
        .contains("admin")
        .doesNotContain("hunter2", "tok-123");
  }

  @Test
  void aMissingCredentialIsTerminal() {
    assertThatThrownBy(() -> new CredentialStore(root).credentials("nope"))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.BAD_CREDENTIALS));
  }

  @Test
  void aDirectoryWithoutPasswordOrTokenIsTerminal() throws Exception {
    Path dir = Files.createDirectories(root.resolve("empty"));
    Files.writeString(dir.resolve("username"), "admin");
    assertThatThrownBy(() -> new CredentialStore(root).credentials("empty"))
        .isInstanceOf(TerminalPowerException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"..", "../etc", "a/b", "/abs", "UPPER", ".hidden", ""})
  void namesCannotEscapeTheRoot(String name) {
    assertThat(CredentialStore.validName(name)).isFalse();
    assertThatThrownBy(() -> new CredentialStore(root).credentials(name))
        .isInstanceOf(TerminalPowerException.class);
  }
}
