package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.nodes.NodeFilter;
import io.bamel.inventory.api.watch.WatchFilter;
import io.bamel.inventory.store.Codec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document the server serves names exactly the fields and query parameters of {@code
 * api-fields.golden}: a field renamed or removed in a refactor fails here (a rename needs a new API
 * version), and a field added to the document must be added to the golden file on purpose.
 * OpenApiIT checks the same file against real responses.
 */
class ApiFieldsGoldenTest {

  @Test
  void theServedDocumentNamesExactlyTheGoldenFields() throws Exception {
    byte[] served = DocsRoutes.document();
    Set<String> derived = ApiFields.fromDocument(Codec.mapper().readTree(served));
    Files.createDirectories(Path.of("target"));
    Files.write(Path.of("target", "api-fields.derived"), derived);
    // What scripts/lint-openapi.sh lints: the document as served, with the power interfaces' parts.
    Files.write(Path.of("target", "openapi.json"), served);
    Set<String> golden = ApiFields.golden();
    assertThat(golden).as("the golden file lists the API's names").hasSizeGreaterThan(100);
    assertThat(difference(golden, derived))
        .as(
            "names in api-fields.golden that openapi.json no longer has: a wire name never"
                + " changes in a refactor; renaming or removing a field needs a new API version"
                + " (/api/v2), not an edit of this file")
        .isEmpty();
    assertThat(difference(derived, golden))
        .as(
            "names in openapi.json missing from api-fields.golden (a new field: add its line;"
                + " the document's full list is in target/api-fields.derived)")
        .isEmpty();
  }

  @Test
  void theQueryParametersTheCodeReadsAreTheGoldenOnes() {
    Set<String> golden = ApiFields.golden();
    Set<String> listing = new TreeSet<>(NodeFilter.PARAMETERS);
    listing.add("limit");
    listing.add("continue");
    for (String name : listing) {
      assertThat(golden).contains("GET /api/v1/nodes ?" + name);
    }
    for (String name : WatchFilter.PARAMETERS) {
      assertThat(golden).contains("GET /api/v1/watch ?" + name);
    }
  }

  @Test
  void aRenamedFieldIsCaught() throws Exception {
    String renamed =
        new String(DocsRoutes.document(), java.nio.charset.StandardCharsets.UTF_8)
            .replace("\"observedSpecRevision\"", "\"observedRevision\"");
    Set<String> derived = ApiFields.fromDocument(Codec.mapper().readTree(renamed));
    assertThat(difference(ApiFields.golden(), derived))
        .containsExactly("NodeStatus observedSpecRevision");
  }

  static Set<String> difference(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.removeAll(b);
    return out;
  }
}
