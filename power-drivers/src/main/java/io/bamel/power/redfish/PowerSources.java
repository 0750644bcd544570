package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.PowerException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Where a system's power draw is read, found once per session by following the links the BMC gives
 * (never by appending to a URI), and how to add it up.
 *
 * <p>Every chassis of the system ({@code Links.Chassis}) counts, except one that contains another
 * of them (an enclosure: its reading includes its blades'). Per chassis, the first that exists of:
 * {@code EnvironmentMetrics} ({@code PowerWatts.Reading}), {@code PowerSubsystem} (the sum of its
 * power supplies' {@code Metrics.InputPowerWatts.Reading}), the deprecated {@code Power} ({@code
 * PowerControl[0].PowerConsumedWatts}). The system's draw is the sum over its chassis; empty when
 * none reports one.
 *
 * @param sources the resources to read, each with its chassis and kind
 */
record PowerSources(List<Source> sources) {

  /** How a resource holds its reading. */
  enum Kind {
    /** {@code EnvironmentMetrics.PowerWatts.Reading}. */
    ENVIRONMENT_METRICS,
    /** One power supply's {@code PowerSupplyMetrics.InputPowerWatts.Reading}. */
    SUPPLY_METRICS,
    /** {@code Power.PowerControl[0].PowerConsumedWatts}. */
    LEGACY_POWER
  }

  /**
   * One resource to read.
   *
   * @param chassis the chassis it belongs to
   * @param uri the resource
   * @param kind how it holds the reading
   */
  record Source(String chassis, String uri, Kind kind) {}

  PowerSources {
    sources = List.copyOf(sources);
  }

  /** The watts in {@code body} of a source of {@code kind}, if a number is there. Pure. */
  static OptionalDouble reading(Kind kind, JsonNode body) {
    JsonNode value =
        switch (kind) {
          case ENVIRONMENT_METRICS ->
              body.path(RedfishNames.POWER_WATTS).path(RedfishNames.READING);
          case SUPPLY_METRICS ->
              body.path(RedfishNames.INPUT_POWER_WATTS).path(RedfishNames.READING);
          case LEGACY_POWER ->
              body.path(RedfishNames.POWER_CONTROL).path(0).path(RedfishNames.POWER_CONSUMED_WATTS);
        };
    return value.isNumber() ? OptionalDouble.of(value.asDouble()) : OptionalDouble.empty();
  }

  /**
   * The chassis whose readings count: those that do not contain another of them ({@code
   * Links.Contains}). Pure.
   *
   * @param chassis each chassis' resource, by its (normalised) URI, in the system's order
   */
  static List<String> counted(Map<String, JsonNode> chassis) {
    List<String> counted = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : chassis.entrySet()) {
      Set<String> contains = new HashSet<>();
      entry
          .getValue()
          .path(RedfishNames.LINKS)
          .path(RedfishNames.CONTAINS)
          .forEach(c -> contains.add(normal(c.path(RedfishNames.ODATA_ID).asText(""))));
      boolean enclosure =
          chassis.keySet().stream()
              .anyMatch(other -> !other.equals(entry.getKey()) && contains.contains(other));
      if (!enclosure) {
        counted.add(entry.getKey());
      }
    }
    return counted;
  }

  /**
   * Finds the sources of the system {@code system} (its resource) through {@code fetch}; {@code
   * resolve} makes a link absolute.
   */
  static PowerSources discover(
      JsonNode system, RedfishFetch fetch, java.util.function.UnaryOperator<String> resolve)
      throws PowerException {
    Map<String, JsonNode> chassis = new LinkedHashMap<>();
    for (JsonNode link : system.path(RedfishNames.LINKS).path(RedfishNames.CHASSIS)) {
      String uri = link.path(RedfishNames.ODATA_ID).asText("");
      if (!uri.isEmpty()) {
        Optional<JsonNode> body = fetch.get(resolve.apply(uri));
        body.ifPresent(b -> chassis.put(normal(uri), b));
      }
    }
    List<Source> sources = new ArrayList<>();
    for (String c : counted(chassis)) {
      sources.addAll(ofChassis(c, chassis.get(c), fetch, resolve));
    }
    return new PowerSources(sources);
  }

  private static List<Source> ofChassis(
      String chassis,
      JsonNode body,
      RedfishFetch fetch,
      java.util.function.UnaryOperator<String> resolve)
      throws PowerException {
    String environment = link(body, RedfishNames.ENVIRONMENT_METRICS);
    if (environment != null) {
      Optional<JsonNode> metrics = fetch.get(resolve.apply(environment));
      if (metrics.isPresent() && metrics.get().path(RedfishNames.POWER_WATTS).isObject()) {
        return List.of(new Source(chassis, resolve.apply(environment), Kind.ENVIRONMENT_METRICS));
      }
    }
    String subsystem = link(body, RedfishNames.POWER_SUBSYSTEM);
    if (subsystem != null) {
      List<Source> supplies = new ArrayList<>();
      Optional<JsonNode> sub = fetch.get(resolve.apply(subsystem));
      String collection = sub.map(s -> link(s, RedfishNames.POWER_SUPPLIES)).orElse(null);
      Optional<JsonNode> members =
          collection == null ? Optional.empty() : fetch.get(resolve.apply(collection));
      for (JsonNode member :
          members
              .map(m -> m.path(RedfishNames.MEMBERS))
              .orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance())) {
        String supply = member.path(RedfishNames.ODATA_ID).asText("");
        if (supply.isEmpty()) {
          continue;
        }
        String metrics =
            fetch.get(resolve.apply(supply)).map(s -> link(s, RedfishNames.METRICS)).orElse(null);
        if (metrics != null) {
          supplies.add(new Source(chassis, resolve.apply(metrics), Kind.SUPPLY_METRICS));
        }
      }
      if (!supplies.isEmpty()) {
        return supplies;
      }
    }
    String power = link(body, RedfishNames.POWER);
    if (power != null) {
      return List.of(new Source(chassis, resolve.apply(power), Kind.LEGACY_POWER));
    }
    return List.of();
  }

  /**
   * Reads every source and adds the chassis up; empty when no chassis reports a reading.
   *
   * @throws PowerException from {@code fetch}; a source answering 404 is reported as {@link Gone}
   *     so that the caller can find the sources again
   */
  OptionalDouble read(RedfishFetch fetch) throws PowerException, Gone {
    Map<String, Double> byChassis = new LinkedHashMap<>();
    for (Source source : sources) {
      Optional<JsonNode> body = fetch.get(source.uri());
      if (body.isEmpty()) {
        throw new Gone(source.uri());
      }
      OptionalDouble watts = reading(source.kind(), body.get());
      if (watts.isPresent()) {
        byChassis.merge(source.chassis(), watts.getAsDouble(), Double::sum);
      }
    }
    return byChassis.isEmpty()
        ? OptionalDouble.empty()
        : OptionalDouble.of(byChassis.values().stream().mapToDouble(Double::doubleValue).sum());
  }

  /** A source the BMC no longer has (404): the sources must be found again. */
  static final class Gone extends Exception {
    private static final long serialVersionUID = 1L;

    Gone(String uri) {
      super(uri + " is gone");
    }
  }

  private static String link(JsonNode node, String name) {
    String uri = node.path(name).path(RedfishNames.ODATA_ID).asText("");
    return uri.isEmpty() ? null : uri;
  }

  /** A link without a trailing {@code /}, for comparing links. */
  static String normal(String uri) {
    return uri.endsWith("/") && uri.length() > 1 ? uri.substring(0, uri.length() - 1) : uri;
  }
}
