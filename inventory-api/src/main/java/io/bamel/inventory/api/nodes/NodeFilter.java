package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.ApiJson;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.Labels;
import io.bamel.inventory.model.MacAddress;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.Texts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The filters of {@code GET /api/v1/nodes} (and the scope of a sync prune), parsed from query
 * parameters into a pure predicate over nodes. Every given filter must match (AND across fields):
 *
 * <ul>
 *   <li>{@code pool}, {@code rack}, {@code site} compare exactly and {@code state} is the lifecycle
 *       state from the status; each takes several values, repeated ({@code pool=a&pool=b}) or
 *       comma-separated ({@code pool=a,b}), any of which may match (OR within the field);
 *   <li>{@code serial}, {@code mgmtAddress} compare exactly, {@code mac} compares canonical MAC
 *       addresses, {@code powerState} is the observed power state ({@code unknown} without a
 *       status): one value each;
 *   <li>{@code labelSelector} is a Kubernetes label selector ({@link LabelSelector}); the older
 *       {@code labels=k=v,k2=v2} is its equality-only form, and both may be given (all must hold);
 *   <li>{@code name} is a prefix of the node id; {@code q} is case-insensitive free text ({@link
 *       FreeText}).
 * </ul>
 */
public record NodeFilter(
    Set<String> pools,
    Set<NodeState> states,
    ObservedPower powerState,
    Set<String> racks,
    Set<String> sites,
    String serial,
    String mac,
    String mgmtAddress,
    LabelSelector selector,
    String name,
    String text)
    implements Predicate<Node> {

  /** The query parameters that are filters. */
  public static final List<String> PARAMETERS =
      List.of(
          "pool",
          "state",
          "powerState",
          "rack",
          "site",
          "serial",
          "mac",
          "mgmtAddress",
          "labels",
          "labelSelector",
          "name",
          "q");

  /** The filters that take several values (repeated or comma-separated). */
  public static final Set<String> LISTS = Set.of("pool", "state", "rack", "site");

  /** Longest value of a text filter. */
  static final int MAX_TEXT = NodeSpec.MAX_TEXT * 8;

  /** The filter that matches every node. */
  public static final NodeFilter NONE =
      new NodeFilter(null, null, null, null, null, null, null, null, null, null, null);

  /** Copies the sets (sorted, unmodifiable; null is empty) and lower-cases the free text. */
  public NodeFilter {
    pools = sorted(pools);
    states = sorted(states);
    racks = sorted(racks);
    sites = sorted(sites);
    selector = selector == null ? LabelSelector.EVERYTHING : selector;
    text = text == null ? null : text.toLowerCase(Locale.ROOT);
  }

  private static <T extends Comparable<T>> Set<T> sorted(Set<T> values) {
    return values == null || values.isEmpty()
        ? Collections.emptySortedSet()
        : Collections.unmodifiableSortedSet(new TreeSet<>(values));
  }

  /**
   * Parses the filters among {@code query} (parameter to its single value), each value taken as it
   * is, commas included: the scope of a sync prune, where {@code site=Berlin, DC1} must never mean
   * two sites.
   *
   * @throws ApiException 400 listing every invalid filter
   */
  public static NodeFilter parse(Map<String, String> query) {
    Map<String, List<String>> values = new TreeMap<>();
    query.forEach((k, v) -> values.put(k, List.of(v)));
    return parse(values, false);
  }

  /**
   * Parses the filters among {@code query} (parameter to every value it was given). The list
   * filters take any number of values, each of which may be comma-separated; the others must be
   * given once.
   *
   * @throws ApiException 400 listing every invalid filter
   */
  public static NodeFilter parseValues(Map<String, List<String>> query) {
    return parse(query, true);
  }

  private static NodeFilter parse(Map<String, List<String>> query, boolean split) {
    List<FieldError> errors = new ArrayList<>();
    for (String p : PARAMETERS) {
      List<String> given = query.get(p);
      if (given != null && given.size() > 1 && !LISTS.contains(p)) {
        errors.add(new FieldError(p, "must be given once"));
      }
    }
    Set<String> pools = list(errors, query, "pool", split);
    Set<String> racks = list(errors, query, "rack", split);
    Set<String> sites = list(errors, query, "site", split);
    Set<NodeState> states = new TreeSet<>();
    for (String s : list(errors, query, "state", split)) {
      NodeState state = enumValue(errors, "state", s, NodeState.values());
      if (state != null) {
        states.add(state);
      }
    }
    ObservedPower power = null;
    String powerText = single(query, "powerState");
    if (powerText != null) {
      power = enumValue(errors, "powerState", powerText, ObservedPower.values());
    }
    String mac = single(query, "mac");
    if (mac != null) {
      if (MacAddress.isValid(mac)) {
        mac = MacAddress.canonical(mac);
      } else {
        errors.add(new FieldError("mac", "not a MAC address: " + Texts.quote(mac)));
      }
    }
    for (String field : List.of("serial", "mgmtAddress", "q")) {
      checkText(errors, field, single(query, field));
    }
    String name = single(query, "name");
    if (name != null && (name.isEmpty() || name.length() > Ids.MAX_LENGTH)) {
      errors.add(new FieldError("name", "must be 1 to " + Ids.MAX_LENGTH + " characters"));
    }
    List<LabelSelector.Requirement> requirements = new ArrayList<>(legacyLabels(errors, query));
    String selectorText = single(query, "labelSelector");
    if (selectorText != null) {
      if (selectorText.length() > MAX_TEXT) {
        errors.add(new FieldError("labelSelector", "must be at most " + MAX_TEXT + " characters"));
      } else {
        try {
          requirements.addAll(LabelSelector.parse(selectorText).requirements());
        } catch (LabelSelector.SyntaxError e) {
          errors.add(new FieldError("labelSelector", e.getMessage()));
        }
      }
    }
    if (!errors.isEmpty()) {
      throw Problems.invalid("invalid filter", errors);
    }
    return new NodeFilter(
        pools,
        states,
        power,
        racks,
        sites,
        single(query, "serial"),
        mac,
        single(query, "mgmtAddress"),
        new LabelSelector(requirements),
        name,
        single(query, "q"));
  }

  private static String single(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** Every value of a list filter, split at commas if {@code split}; an empty item is an error. */
  private static Set<String> list(
      List<FieldError> errors, Map<String, List<String>> query, String name, boolean split) {
    Set<String> out = new TreeSet<>();
    for (String value : query.getOrDefault(name, List.of())) {
      for (String item : split ? value.split(",", -1) : new String[] {value}) {
        if (item.isEmpty() || item.length() > MAX_TEXT) {
          errors.add(
              new FieldError(
                  name,
                  "each value must be 1 to "
                      + MAX_TEXT
                      + " characters (several values: "
                      + name
                      + "=a,b or "
                      + name
                      + "=a&"
                      + name
                      + "=b)"));
          return Set.of();
        }
        out.add(item);
      }
    }
    return out;
  }

  private static void checkText(List<FieldError> errors, String field, String value) {
    if (value != null && (value.isEmpty() || value.length() > MAX_TEXT)) {
      errors.add(new FieldError(field, "must be 1 to " + MAX_TEXT + " characters"));
    }
  }

  /** The older {@code labels=k=v,k2=v2} filter, as equality requirements. */
  private static List<LabelSelector.Requirement> legacyLabels(
      List<FieldError> errors, Map<String, List<String>> query) {
    String labelText = single(query, "labels");
    List<LabelSelector.Requirement> out = new ArrayList<>();
    if (labelText == null) {
      return out;
    }
    for (String pair : labelText.split(",", -1)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        errors.add(new FieldError("labels", "expected k=v[,k2=v2]: " + Texts.quote(pair)));
        continue;
      }
      String key = pair.substring(0, eq);
      String value = pair.substring(eq + 1);
      if (!Labels.isValidKey(key) || !Labels.isValidValue(value)) {
        errors.add(new FieldError("labels", "not a valid label: " + Texts.quote(pair)));
        continue;
      }
      out.add(new LabelSelector.Requirement(key, LabelSelector.Operator.EQUALS, Set.of(value)));
    }
    return out;
  }

  private static <E extends Enum<E>> E enumValue(
      List<FieldError> errors, String field, String text, E[] values) {
    for (E value : values) {
      if (value.toString().equals(text)) {
        return value;
      }
    }
    errors.add(new FieldError(field, "unknown value " + Texts.quote(text)));
    return null;
  }

  /** Whether no filter is set. */
  public boolean isEmpty() {
    return equals(NONE);
  }

  @Override
  public boolean test(Node node) {
    NodeSpec s = node.spec();
    if (!pools.isEmpty() && (s.pool() == null || !pools.contains(s.pool()))) {
      return false;
    }
    if (!racks.isEmpty() && (s.rack() == null || !racks.contains(s.rack()))) {
      return false;
    }
    if (!sites.isEmpty() && (s.site() == null || !sites.contains(s.site()))) {
      return false;
    }
    if (serial != null && !serial.equals(s.serial())) {
      return false;
    }
    if (mac != null && !mac.equals(s.macAddress())) {
      return false;
    }
    if (mgmtAddress != null && !mgmtAddress.equals(s.mgmtAddress())) {
      return false;
    }
    if (!states.isEmpty() && !states.contains(node.state())) {
      return false;
    }
    if (powerState != null) {
      ObservedPower observed =
          node.status() == null || node.status().observedPower() == null
              ? ObservedPower.UNKNOWN
              : node.status().observedPower();
      if (observed != powerState) {
        return false;
      }
    }
    if (name != null && !node.id().startsWith(name)) {
      return false;
    }
    if (!selector.matches(s.labels())) {
      return false;
    }
    return text == null || FreeText.matches(node, text);
  }

  /**
   * A stable, unambiguous text of the filter (JSON of every filter, sets sorted, the selector in
   * canonical form), for the listing memo, the ETag and binding a continue token to it: two queries
   * with the same text select the same nodes.
   */
  public String canonical() {
    Map<String, Object> all = new TreeMap<>();
    all.put("pool", List.copyOf(pools));
    all.put("state", states.stream().map(NodeState::toString).toList());
    all.put("powerState", powerState == null ? null : powerState.toString());
    all.put("rack", List.copyOf(racks));
    all.put("site", List.copyOf(sites));
    all.put("serial", serial);
    all.put("mac", mac);
    all.put("mgmtAddress", mgmtAddress);
    all.put("labelSelector", selector.canonical());
    all.put("name", name);
    all.put("q", text);
    return new String(ApiJson.write(all), StandardCharsets.UTF_8);
  }
}
