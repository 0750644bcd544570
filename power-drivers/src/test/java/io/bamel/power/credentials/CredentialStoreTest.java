package io.bamel.power.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.net.IpLiteral;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
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

  /** What {@code call} throws, which must be a {@link TerminalPowerException}. */
  private static TerminalPowerException refusal(ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isInstanceOf(TerminalPowerException.class);
    return (TerminalPowerException) thrown;
  }

  private static Destination https(String ip) {
    return new Destination("https", ip, List.of(IpLiteral.parse(ip).orElseThrow()), false);
  }

  private Path credential(String name, String allowedHosts) throws Exception {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(dir.resolve("username"), "admin\n");
    Files.writeString(dir.resolve("password"), "Very-Secret-pw\n");
    if (allowedHosts != null) {
      Files.writeString(dir.resolve(CredentialStore.ALLOWED_HOSTS), allowedHosts);
    }
    return dir;
  }

  @Test
  void theAllowListIsReadOnEveryCheckAndARefusalNamesCredentialAndAddressButNoSecret()
      throws Exception {
    Path dir = credential("rack-a", "192.0.2.0/24\n");
    CredentialStore store = new CredentialStore(root);

    assertThat(store.credentials("rack-a", https("192.0.2.9")).password())
        .isEqualTo("Very-Secret-pw");
    TerminalPowerException elsewhere =
        refusal(() -> store.credentials("rack-a", https("198.51.100.9")));
    assertThat(elsewhere.reason()).isEqualTo(PowerException.Reason.NOT_ALLOWED);
    assertThat(elsewhere.getMessage())
        .isEqualTo(
            "credential 'rack-a' may not be sent to https://198.51.100.9: 198.51.100.9"
                + " is not in its allowed-hosts file")
        .doesNotContain("Very-Secret-pw");

    Files.writeString(dir.resolve(CredentialStore.ALLOWED_HOSTS), "198.51.100.0/24\n");
    assertThat(store.credentials("rack-a", https("198.51.100.9")).username()).isEqualTo("admin");
    assertThatThrownBy(() -> store.checkDestination("rack-a", https("192.0.2.9")))
        .isInstanceOf(TerminalPowerException.class);
  }

  @Test
  void aMalformedAllowListRefusesNamingTheCredentialAndTheLine() throws Exception {
    credential("rack-b", "192.0.2.5\n192.0.2.0/40\n");
    TerminalPowerException e =
        refusal(() -> new CredentialStore(root).credentials("rack-b", https("192.0.2.5")));
    assertThat(e.reason()).isEqualTo(PowerException.Reason.NOT_ALLOWED);
    assertThat(e.getMessage())
        .isEqualTo(
            "credential 'rack-b': allowed-hosts line 2: '192.0.2.0/40': the prefix"
                + " length is at most 32");
  }

  @Test
  void withoutAnAllowListHttpsGoesAnywhereUnlessTheStoreRequiresOne() throws Exception {
    credential("legacy", null);
    credential("listed", "192.0.2.5\n");
    Files.createDirectories(root.resolve("..data")); // a mounted Secret's bookkeeping

    CredentialStore lenient = new CredentialStore(root);
    assertThat(lenient.requiresAllowList()).isFalse();
    assertThat(lenient.credentials("legacy", https("203.0.113.50")).username()).isEqualTo("admin");
    assertThat(lenient.namesWithoutAllowList()).containsExactly("legacy");

    CredentialStore strict = new CredentialStore(root, true);
    assertThat(strict.requiresAllowList()).isTrue();
    assertThat(refusal(() -> strict.credentials("legacy", https("203.0.113.50"))).getMessage())
        .isEqualTo(
            "credential 'legacy' may not be sent to https://203.0.113.50: it has no"
                + " allowed-hosts file, and this server requires one");
    assertThat(strict.credentials("listed", https("192.0.2.5")).username()).isEqualTo("admin");
    assertThat(strict.namesWithoutAllowList()).containsExactly("legacy");
    assertThat(new CredentialStore(root.resolve("missing")).namesWithoutAllowList()).isEmpty();
  }

  @Test
  void oneDirectoryAsASourceAppliesItsOwnAllowList() throws Exception {
    Path dir = credential("Bench BMC", "http://192.0.2.5\n");
    CredentialSource source = CredentialStore.ofDirectory(dir);
    Destination plain =
        new Destination(
            "http", "192.0.2.5", List.of(IpLiteral.parse("192.0.2.5").orElseThrow()), false);
    assertThat(source.credentials("anything", plain).password()).isEqualTo("Very-Secret-pw");
    assertThatThrownBy(() -> source.credentials("anything", https("192.0.2.6")))
        .hasMessageContaining("'anything' may not be sent to https://192.0.2.6");
  }
}
