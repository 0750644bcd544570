package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OpenApiIT {

  @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();

  @Test
  void theServedDocumentParsesAsOpenApi31AndDescribesEveryRoute() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ApiFixture.Response doc = f.send("GET", "/openapi.json", null, null, null, Map.of());
      assertThat(doc.status()).isEqualTo(200);
      ParseOptions options = new ParseOptions();
      options.setResolve(true);
      SwaggerParseResult result = new OpenAPIV3Parser().readContents(doc.body(), null, options);
      assertThat(result.getMessages()).isEmpty();
      OpenAPI api = result.getOpenAPI();
      assertThat(api.getOpenapi()).isEqualTo("3.1.0");
      for (InventoryApi.Route route : f.api.routes()) {
        PathItem item = api.getPaths().get(route.path());
        assertThat(item).as("path %s", route.path()).isNotNull();
        PathItem.HttpMethod method =
            PathItem.HttpMethod.valueOf(route.method().toUpperCase(Locale.ROOT));
        assertThat(item.readOperationsMap())
            .as("%s %s", route.method(), route.path())
            .containsKey(method);
      }
      long described =
          api.getPaths().values().stream().mapToLong(p -> p.readOperations().size()).sum();
      assertThat(described).isEqualTo(f.api.routes().size());

      ApiFixture.Response page = f.send("GET", "/docs", null, null, null, Map.of());
      assertThat(page.contentType()).startsWith("text/html");
      assertThat(page.body()).contains("/api/v1/sync").contains("/openapi.json");
    }
  }
}
