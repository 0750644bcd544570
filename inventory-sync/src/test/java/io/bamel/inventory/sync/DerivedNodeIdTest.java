package io.bamel.inventory.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.Ids;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The node id a name implies: ASCII-fold what folds, else none. */
class DerivedNodeIdTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      nullValues = "-",
      value = {
        "edge-gw-01, edge-gw-01",
        "Spare-01, spare-01",
        "Müller-Rack 3, muller-rack-3",
        "Ünï, uni",
        "Straße.7, strasse.7",
        "Søren_ÆØ, soren-aeo",
        "ｓｒｖ１, srv1", // full-width forms fold (NFKD)
        "节点, -", // CJK: no transliteration
        "сервер, -", // Cyrillic: none
        "сервер-1, -", // a name that does not fold wholly gives none, not '1'
        "ノード・ワン, -",
        "'   ', -",
        "--, -",
        "🙂 host, -",
      })
  void derives(String name, String id) {
    String derived = DerivedNodeId.of(name);
    assertThat(derived).isEqualTo(id);
    if (derived != null) {
      assertThat(Ids.problem(derived)).isNull();
    }
  }
}
