package io.bamel.inventory.api;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Labels;
import io.bamel.inventory.model.MacAddress;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.Texts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The filters of {@code GET /api/v1/nodes} (and the scope of a sync prune), parsed from query
 * parameters into a pure predicate over nodes. Every given filter must match: {@code pool}, {@code
 * rack}, {@code site}, {@code serial}, {@code mgmtAddress} compare exactly; {@code mac} compares
 * canonical MAC addresses; {@code state} is the lifecycle state and {@code powerState} the observed
 * power state from the status ({@code unknown} without a status); {@code labels} is {@code
 * k=v,k2=v2}, all of which the node must carry.
 */
public record NodeFilter(
    String pool,
    NodeState state,
    ObservedPower powerState,
    String rack,
    String site,
    String serial,
    String mac,
    String mgmtAddress,
    Map<String, String> labels)
    implements Predicate<Node> {

  /** The query parameters that are filters. */
  public static final List<String> PARAMETERS =
      List.of(
          "pool", "state", "powerState", "rack", "site", "serial", "mac", "mgmtAddress", "labels");

  /** Copies the labels. */
  public NodeFilter {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /**
   * Parses the filters among {@code query} (parameter to its single value).
   *
   * @throws ApiException 400 listing every invalid filter
   */
  public static NodeFilter parse(Map<String, String> query) {
    List<FieldError> errors = new ArrayList<>();
    NodeState state = null;
    ObservedPower power = null;
    String mac = query.get("mac");
    if (query.get("state") != null) {
      state = enumValue(errors, "state", query.get("state"), NodeState.values());
    }
    if (query.get("powerState") != null) {
      power = enumValue(errors, "powerState", query.get("powerState"), ObservedPower.values());
    }
    if (mac != null) {
      if (MacAddress.isValid(mac)) {
        mac = MacAddress.canonical(mac);
      } else {
        errors.add(new FieldError("mac", "not a MAC address: " + Texts.quote(mac)));
      }
    }
    Map<String, String> labels = new LinkedHashMap<>();
    String labelText = query.get("labels");
    if (labelText != null) {
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
        labels.put(key, value);
      }
    }
    for (String text : List.of("pool", "rack", "site", "serial", "mgmtAddress")) {
      String v = query.get(text);
      if (v != null && (v.isEmpty() || v.length() > NodeSpec.MAX_TEXT * 8)) {
        errors.add(new FieldError(text, "must be 1 to " + NodeSpec.MAX_TEXT * 8 + " characters"));
      }
    }
    if (!errors.isEmpty()) {
      throw Problems.invalid("invalid filter", errors);
    }
    return new NodeFilter(
        query.get("pool"),
        state,
        power,
        query.get("rack"),
        query.get("site"),
        query.get("serial"),
        mac,
        query.get("mgmtAddress"),
        labels);
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
    return equals(new NodeFilter(null, null, null, null, null, null, null, null, null));
  }

  @Override
  public boolean test(Node node) {
    NodeSpec s = node.spec();
    if (pool != null && !pool.equals(s.pool())) {
      return false;
    }
    if (rack != null && !rack.equals(s.rack())) {
      return false;
    }
    if (site != null && !site.equals(s.site())) {
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
    if (state != null && node.state() != state) {
      return false;
    }
    if (powerState != null) {
      ObservedPower observed =
          node.status() == null || node.status().powerState() == null
              ? ObservedPower.UNKNOWN
              : node.status().powerState();
      if (observed != powerState) {
        return false;
      }
    }
    for (Map.Entry<String, String> label : labels.entrySet()) {
      if (!Objects.equals(s.labels().get(label.getKey()), label.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** A stable text of the filter, for binding a continue token to it. */
  public String canonical() {
    Map<String, String> all = new TreeMap<>();
    all.put("pool", pool);
    all.put("state", state == null ? null : state.toString());
    all.put("powerState", powerState == null ? null : powerState.toString());
    all.put("rack", rack);
    all.put("site", site);
    all.put("serial", serial);
    all.put("mac", mac);
    all.put("mgmtAddress", mgmtAddress);
    all.put("labels", new TreeMap<>(labels).toString());
    return all.toString();
  }
}
