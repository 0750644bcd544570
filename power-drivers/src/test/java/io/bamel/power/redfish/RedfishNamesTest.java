package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.redfish.dmtf.DmtfSchemas;
import io.bamel.power.redfish.dmtf.Mockup;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every name in {@link RedfishNames} is found where DMTF publishes it: a property, action,
 * parameter, definition or enum value of the JSON schemas redfish-dmtf carries; an annotation
 * matching their annotation pattern with its term defined; a URI among their {@code uris}. A
 * renamed constant fails here. HTTP headers are not in the schemas: they are compared with the
 * names DSP0266 (Redfish protocol, "Request headers" and "Response headers") and RFC 9110 spell.
 */
class RedfishNamesTest {

  /**
   * Names whose schema redfish-dmtf does not carry (PowerSupplyMetrics, HostInterface): found as a
   * property of DMTF's published mockups instead.
   */
  private static final Set<String> IN_MOCKUPS_ONLY =
      Set.of(RedfishNames.INPUT_POWER_WATTS, RedfishNames.HOST_ETHERNET_INTERFACES);

  /** DSP0266 1.x and RFC 9110 (RFC 2068 for Keep-Alive): the header names and values used. */
  private static final Map<String, String> HEADERS =
      Map.ofEntries(
          Map.entry("HEADER_X_AUTH_TOKEN", "X-Auth-Token"),
          Map.entry("HEADER_ODATA_VERSION", "OData-Version"),
          Map.entry("HEADER_ODATA_VERSION_VALUE", "4.0"),
          Map.entry("HEADER_ACCEPT", "Accept"),
          Map.entry("HEADER_ACCEPT_VALUE", "application/json"),
          Map.entry("HEADER_AUTHORIZATION", "Authorization"),
          Map.entry("HEADER_LOCATION", "Location"),
          Map.entry("HEADER_ETAG", "ETag"),
          Map.entry("HEADER_IF_MATCH", "If-Match"),
          Map.entry("HEADER_KEEP_ALIVE", "Keep-Alive"),
          Map.entry("HEADER_CONNECTION", "Connection"),
          Map.entry("HEADER_CONNECTION_KEEP_ALIVE", "keep-alive"));

  static final Set<String> names = new HashSet<>();
  static final Set<String> enums = new HashSet<>();
  static final Set<String> uris = new HashSet<>();
  static final List<Pattern> annotationPatterns = new ArrayList<>();
  static final Set<String> mockupKeys = new HashSet<>();

  @BeforeAll
  static void readSchemas() {
    for (String file : DmtfSchemas.files()) {
      walk(DmtfSchemas.file(file));
    }
    for (String mockup : DmtfFiles.MOCKUPS) {
      Mockup.of(mockup).resources().values().forEach(RedfishNamesTest::keys);
    }
  }

  private static void walk(JsonNode node) {
    if (node.isObject()) {
      for (String container : List.of("properties", "parameters", "definitions")) {
        node.path(container).fieldNames().forEachRemaining(names::add);
      }
      node.path("patternProperties")
          .fieldNames()
          .forEachRemaining(p -> annotationPatterns.add(Pattern.compile(p)));
      node.path("enum").forEach(v -> enums.add(v.asText()));
      node.path("uris").forEach(v -> uris.add(v.asText()));
      node.forEach(RedfishNamesTest::walk);
    } else if (node.isArray()) {
      node.forEach(RedfishNamesTest::walk);
    }
  }

  private static void keys(JsonNode node) {
    if (node.isObject()) {
      node.fieldNames().forEachRemaining(mockupKeys::add);
    }
    if (node.isContainerNode()) {
      node.forEach(RedfishNamesTest::keys);
    }
  }

  private static Map<String, String> constants() throws IllegalAccessException {
    Map<String, String> constants = new LinkedHashMap<>();
    for (Field field : RedfishNames.class.getDeclaredFields()) {
      int m = field.getModifiers();
      if (Modifier.isStatic(m) && Modifier.isFinal(m) && field.getType() == String.class) {
        constants.put(field.getName(), (String) field.get(null));
      }
    }
    return constants;
  }

  @Test
  void theSchemasWereRead() {
    assertThat(names).contains("PowerState", "ResetType").hasSizeGreaterThan(500);
    assertThat(enums).contains("GracefulShutdown", "Pxe");
    assertThat(uris).contains("/redfish/v1/Systems/{ComputerSystemId}");
    assertThat(annotationPatterns).isNotEmpty();
  }

  @Test
  void everyRedfishNameIsInDmtfsSchemas() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, String> constant : constants().entrySet()) {
      String field = constant.getKey();
      String value = constant.getValue();
      if (field.startsWith("HEADER_")) {
        continue; // checkedAgainstDsp0266 below
      }
      if (!published(value)) {
        missing.add(field + " = " + value);
      }
    }
    assertThat(missing).as("names not found in DMTF's schemas").isEmpty();
  }

  private static boolean published(String value) {
    if (IN_MOCKUPS_ONLY.contains(value)) {
      return mockupKeys.contains(value);
    }
    if (value.startsWith("/")) {
      return uri(value);
    }
    if (value.contains("@")) {
      return annotation(value);
    }
    return names.contains(value) || enums.contains(value);
  }

  /**
   * A URI or URI part: the service root itself, a path the schemas list below it ({@code /Systems/}
   * is the start of {@code /redfish/v1/Systems/{ComputerSystemId}}), or an action's path, whose
   * last segment with a {@code #} is the action's name in the schemas.
   */
  private static boolean uri(String value) {
    int actions = value.indexOf("/Actions/");
    if (actions >= 0) {
      return names.contains("Actions") && names.contains("#" + value.substring(actions + 9));
    }
    String full =
        value.startsWith(RedfishNames.SERVICE_ROOT) ? value : RedfishNames.SERVICE_ROOT + value;
    return uris.stream().anyMatch(u -> u.equals(full) || u.startsWith(full));
  }

  /**
   * An annotation: a property of the schemas ({@code @odata.id}, {@code @Message.ExtendedInfo}), or
   * one their annotation pattern admits whose term is a schema name ({@code @Redfish.ActionInfo}:
   * the ActionInfo schema; {@code @Redfish.AllowableValues}: its property).
   */
  private static boolean annotation(String value) {
    if (names.contains(value)) {
      return true;
    }
    String term = value.substring(value.lastIndexOf('.') + 1);
    return names.contains(term)
        && annotationPatterns.stream().anyMatch(p -> p.matcher("Property" + value).matches());
  }

  @Test
  void headersAreSpelledAsDsp0266AndRfc9110SpellThem() throws Exception {
    Map<String, String> headers = new LinkedHashMap<>();
    constants()
        .forEach(
            (field, value) -> {
              if (field.startsWith("HEADER_")) {
                headers.put(field, value);
              }
            });
    assertThat(headers).isEqualTo(HEADERS);
  }

  @Test
  void aRenamedNameIsCaught() {
    // the rename of 86c68ba: "BmcPowerState" is in no DMTF schema
    assertThat(published("BmcPowerState")).isFalse();
    assertThat(published("PowerState")).isTrue();
    assertThat(published("/Systemz/")).isFalse();
    assertThat(published("/Actions/ComputerSystem.Restart")).isFalse();
    assertThat(published("@Redfish.ActionInfos")).isFalse();
  }
}
