package io.bamel.power.redfish.dmtf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads DMTF's published JSON schemas ({@link DmtfFiles}, {@code json-schema/}): the newest
 * versioned schema of a resource type, and the enumerated values of a definition or property, for
 * the mockup server's checks where a mockup publishes no allowable values of its own.
 */
public final class DmtfSchemas {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DIR = "json-schema/";
  private static final String DMTF_URL = "http://redfish.dmtf.org/schemas/v1/";

  private DmtfSchemas() {}

  private static final List<String> FILES =
      DmtfFiles.list().stream()
          .filter(f -> f.startsWith(DIR) && f.endsWith(".json"))
          .map(f -> f.substring(DIR.length()))
          .toList();

  /** Every schema file name ({@code ComputerSystem.v1_27_0.json}). */
  public static List<String> files() {
    return FILES;
  }

  /** A schema file, parsed. */
  public static JsonNode file(String fileName) {
    byte[] bytes =
        DmtfFiles.read(DIR + fileName)
            .orElseThrow(() -> new IllegalArgumentException("no DMTF schema " + fileName));
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(fileName, e);
    }
  }

  /** The newest versioned schema file of {@code type} ({@code ComputerSystem.v1_27_0.json}). */
  public static String newest(String type) {
    return files().stream()
        .filter(f -> f.startsWith(type + ".v"))
        .max(Comparator.comparing(DmtfSchemas::version))
        .orElseThrow(() -> new IllegalArgumentException("no versioned DMTF schema of " + type));
  }

  private static String version(String file) {
    // v1_27_0 -> 001.027.000 so that the text order is the version order
    String[] parts = file.replaceAll("^.*\\.v([0-9_]+)\\.json$", "$1").split("_");
    StringBuilder key = new StringBuilder();
    for (String part : parts) {
      key.append(String.format("%03d.", Integer.parseInt(part)));
    }
    return key.toString();
  }

  /**
   * The enum of the property {@code property} of the definition {@code definition} in {@code
   * fileName}, following its {@code $ref}s; empty when the schema gives none.
   */
  public static Optional<List<String>> propertyEnum(
      String fileName, String definition, String property) {
    JsonNode schema = file(fileName);
    JsonNode node = schema.path("definitions").path(definition).path("properties").path(property);
    return enumOf(fileName, node, 0);
  }

  /** The enum of the definition {@code definition} in {@code fileName}, when it has one. */
  public static Optional<List<String>> definitionEnum(String fileName, String definition) {
    return enumOf(fileName, file(fileName).path("definitions").path(definition), 0);
  }

  private static Optional<List<String>> enumOf(String fileName, JsonNode node, int depth) {
    if (depth > 8 || node.isMissingNode()) {
      return Optional.empty();
    }
    if (node.path("enum").isArray()) {
      List<String> values = new ArrayList<>();
      node.path("enum").forEach(v -> values.add(v.asText()));
      return Optional.of(values);
    }
    String ref = node.path("$ref").asText("");
    if (!ref.isEmpty()) {
      return follow(fileName, ref, depth);
    }
    for (JsonNode option : node.path("anyOf")) {
      Optional<List<String>> values = enumOf(fileName, option, depth + 1);
      if (values.isPresent()) {
        return values;
      }
    }
    return Optional.empty();
  }

  private static Optional<List<String>> follow(String fileName, String ref, int depth) {
    int hash = ref.indexOf("#/definitions/");
    if (hash < 0) {
      return Optional.empty();
    }
    String target = hash == 0 ? fileName : ref.substring(0, hash);
    if (target.startsWith(DMTF_URL)) {
      target = target.substring(DMTF_URL.length());
    }
    if (!files().contains(target)) {
      return Optional.empty();
    }
    String definition = ref.substring(hash + "#/definitions/".length());
    return enumOf(target, file(target).path("definitions").path(definition), depth + 1);
  }
}
