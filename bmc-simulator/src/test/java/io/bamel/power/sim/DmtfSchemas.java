package io.bamel.power.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.BasicDialectRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DMTF's Redfish JSON schemas from {@code redfish-dmtf} ({@code json-schema/}), read from the class
 * path under their published ids ({@code http://redfish.dmtf.org/schemas/v1/...}, never fetched),
 * with networknt's validator. A resource is checked against the schema its {@code @odata.type}
 * names, or the newest version of that schema carried (Redfish only adds within a major version). A
 * schema that a carried schema refers to but that is not carried (say {@code Bios.json}, linked
 * from the ComputerSystem) stands as one that allows anything: the link's own resource, when
 * served, is reported as unvalidated instead.
 */
final class DmtfSchemas {

  static final String PREFIX = "http://redfish.dmtf.org/schemas/";
  static final String DIALECT = PREFIX + "v1/redfish-schema-v1.json";
  private static final String FOLDER = "json-schema/";
  private static final Pattern TYPE =
      Pattern.compile("#([A-Za-z0-9]+)\\.(?:(v\\d+_\\d+_\\d+)\\.)?([A-Za-z0-9]+)");

  private static final Pattern REF =
      Pattern.compile(
          "\"\\$ref\":\\s*\"(" + Pattern.quote(PREFIX) + "[^\"#]*)#/definitions/([A-Za-z0-9_]+)\"");

  private final Set<String> files = new TreeSet<>();
  private final Map<String, Set<String>> referenced = new ConcurrentHashMap<>();
  private final Set<String> standIns = ConcurrentHashMap.newKeySet();
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
  private final SchemaRegistry registry;

  DmtfSchemas() {
    for (String file : DmtfFiles.list()) {
      if (file.startsWith(FOLDER)) {
        files.add(file.substring(FOLDER.length()));
        Matcher ref =
            REF.matcher(new String(DmtfFiles.read(file).orElseThrow(), StandardCharsets.UTF_8));
        while (ref.find()) {
          referenced.computeIfAbsent(ref.group(1), k -> new TreeSet<>()).add(ref.group(2));
        }
      }
    }
    Dialect redfish = Dialect.builder(DIALECT, Dialects.getDraft7()).build();
    registry =
        SchemaRegistry.builder()
            .defaultDialectId(DIALECT)
            .dialectRegistry(new BasicDialectRegistry(redfish))
            .schemas(this::text)
            .build();
  }

  /** The carried schema text of {@code iri}, or a stand-in that allows anything. */
  private String text(String iri) {
    if (!iri.startsWith(PREFIX)) {
      return null;
    }
    String name = iri.substring(iri.lastIndexOf('/') + 1);
    int hash = name.indexOf('#');
    name = hash < 0 ? name : name.substring(0, hash);
    Optional<byte[]> bytes =
        iri.startsWith(PREFIX + "v1/") ? DmtfFiles.read(FOLDER + name) : Optional.empty();
    if (bytes.isEmpty()) {
      standIns.add(iri);
      StringBuilder standIn = new StringBuilder("{\"definitions\":{");
      String comma = "";
      for (String definition : referenced.getOrDefault(iri, Set.of())) {
        standIn.append(comma).append('"').append(definition).append("\":{}");
        comma = ",";
      }
      return standIn.append("}}").toString();
    }
    return new String(bytes.get(), StandardCharsets.UTF_8);
  }

  /**
   * The schema file for {@code odataType} ({@code ComputerSystem.v1_27_0.json}), the newest carried
   * version of its namespace when that version is not carried, or empty when none is.
   */
  Optional<String> fileFor(String odataType) {
    Matcher m = TYPE.matcher(odataType == null ? "" : odataType);
    if (!m.matches()) {
      return Optional.empty();
    }
    String namespace = m.group(1);
    if (m.group(2) == null) {
      return files.contains(namespace + ".json")
          ? Optional.of(namespace + ".json")
          : Optional.empty();
    }
    String exact = namespace + "." + m.group(2) + ".json";
    if (files.contains(exact)) {
      return Optional.of(exact);
    }
    return files.stream()
        .filter(f -> f.startsWith(namespace + ".v1_") && f.endsWith(".json"))
        .max(Comparator.comparing(DmtfSchemas::version));
  }

  /** The namespace of {@code odataType} ({@code ComputerSystem}). */
  static String namespace(String odataType) {
    Matcher m = TYPE.matcher(odataType == null ? "" : odataType);
    return m.matches() ? m.group(1) : String.valueOf(odataType);
  }

  /** The errors of {@code resource} against the schema {@code file}'s definition of its type. */
  List<Error> validate(JsonNode resource, String file) {
    Matcher m = TYPE.matcher(resource.path("@odata.type").asText());
    String type = m.matches() ? m.group(3) : "";
    Schema schema =
        schemas.computeIfAbsent(
            file + "#" + type,
            k ->
                registry.getSchema(
                    SchemaLocation.of(PREFIX + "v1/" + file + "#/definitions/" + type)));
    return schema.validate(resource);
  }

  /** The schemas referred to that are not carried, each standing as one that allows anything. */
  Set<String> standIns() {
    return new TreeSet<>(standIns);
  }

  private static String version(String file) {
    String[] parts = file.replaceAll(".*\\.v(\\d+)_(\\d+)_(\\d+)\\.json", "$1 $2 $3").split(" ");
    return String.format(
        "%05d%05d%05d",
        Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
  }
}
