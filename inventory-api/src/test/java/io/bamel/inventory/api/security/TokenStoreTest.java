package io.bamel.inventory.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokenStoreTest {

  @Test
  void authenticatesByHashAndKeepsOnlyHashes(@TempDir Path dir) throws Exception {
    String dcim = TokenStore.newToken();
    String ops = TokenStore.newToken();
    Path file = dir.resolve("tokens");
    Files.write(
        file,
        List.of(
            "# comment",
            "",
            TokenStore.line("dcim", "write", dcim),
            TokenStore.line("ops", "admin", ops)));
    assertThat(Files.readString(file)).doesNotContain(dcim).doesNotContain(ops);
    TokenStore store = TokenStore.load(file);
    assertThat(store.size()).isEqualTo(2);
    assertThat(store.authenticate(dcim)).contains(new Principal("dcim", Access.WRITE));
    assertThat(store.authenticate(ops)).contains(new Principal("ops", Access.ADMIN));
    assertThat(store.authenticate(dcim + "x")).isEmpty();
    assertThat(store.authenticate("")).isEmpty();
    assertThat(dcim).startsWith("bml_").hasSize(47).isNotEqualTo(ops);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "name read",
        "name read sha256:abc",
        "name superuser sha256:0000000000000000000000000000000000000000000000000000000000000000",
        "bad/name read sha256:0000000000000000000000000000000000000000000000000000000000000000",
        "name read md5:0000000000000000000000000000000000000000000000000000000000000000",
      })
  void malformedLinesNameTheLineNotTheContent(String line) {
    assertThatThrownBy(() -> TokenStore.parse(line, "tokens:3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tokens:3:")
        .hasMessageNotContaining("0000000000");
  }

  @Test
  void bmcIsAScopeBetweenWriteAndAdmin() {
    String token = TokenStore.newToken();
    TokenStore store =
        TokenStore.of(List.of(TokenStore.parse(TokenStore.line("netops", "bmc", token), "t:1")));
    assertThat(store.authenticate(token)).contains(new Principal("netops", Access.BMC));
    assertThat(TokenStore.scopeOf("bmc")).isEqualTo(Access.BMC);
    assertThat(Access.WRITE.grantedBy(Access.BMC)).isTrue();
    assertThat(Access.BMC.grantedBy(Access.WRITE)).isFalse();
    assertThat(Access.BMC.grantedBy(Access.ADMIN)).isTrue();
    assertThat(Access.ADMIN.grantedBy(Access.BMC)).isFalse();
    assertThat(Access.BMC.scopeName()).isEqualTo("bmc");
  }

  @Test
  void scopesAreCumulative() {
    assertThat(Access.READ.grantedBy(Access.ADMIN)).isTrue();
    assertThat(Access.WRITE.grantedBy(Access.WRITE)).isTrue();
    assertThat(Access.WRITE.grantedBy(Access.READ)).isFalse();
    assertThat(Access.ADMIN.grantedBy(Access.WRITE)).isFalse();
    assertThat(Access.PUBLIC.grantedBy(Access.READ)).isTrue();
  }
}
