package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which NetBox devices bamel takes: by site slug, tag slug, role slug, status value and tenant
 * slug. Several values of one filter are alternatives (any), except tags, of which a device must
 * carry every one (as NetBox's {@code ?tag=a&tag=b} does); different filters must all hold; an
 * empty filter takes everything. The same filters become the pull's query ({@link #query()}) and
 * judge a webhook's device ({@link #matches(JsonNode)}), so both take the same devices. Pure.
 *
 * @param site site slugs
 * @param tag tag slugs, all required
 * @param role device role slugs ({@code role} in NetBox 3.6 and later)
 * @param status status values ({@code active}, {@code planned}, ...)
 * @param tenant tenant slugs
 */
public record NetBoxFilters(
    List<String> site,
    List<String> tag,
    List<String> role,
    List<String> status,
    List<String> tenant) {

  /** No filter: every device. */
  public static final NetBoxFilters NONE =
      new NetBoxFilters(List.of(), List.of(), List.of(), List.of(), List.of());

  /** Copies the lists, dropping blank values. */
  public NetBoxFilters {
    site = clean(site);
    tag = clean(tag);
    role = clean(role);
    status = clean(status);
    tenant = clean(tenant);
  }

  private static List<String> clean(List<String> values) {
    return values == null
        ? List.of()
        : values.stream().filter(v -> v != null && !v.isBlank()).map(String::strip).toList();
  }

  /**
   * The query parameters, in a fixed order ({@code site}, {@code tag}, ...), repeated per value.
   */
  public List<Map.Entry<String, String>> query() {
    List<Map.Entry<String, String>> q = new ArrayList<>();
    site.forEach(v -> q.add(Map.entry("site", v)));
    tag.forEach(v -> q.add(Map.entry("tag", v)));
    role.forEach(v -> q.add(Map.entry("role", v)));
    status.forEach(v -> q.add(Map.entry("status", v)));
    tenant.forEach(v -> q.add(Map.entry("tenant", v)));
    return q;
  }

  /** Whether {@code device} (NetBox's device JSON) passes every filter. */
  public boolean matches(JsonNode device) {
    if (!site.isEmpty() && !site.contains(slug(device.get("site")))) {
      return false;
    }
    if (!tag.isEmpty()) {
      List<String> tags = new ArrayList<>();
      for (JsonNode t : device.path("tags")) {
        tags.add(slug(t));
      }
      if (!tags.containsAll(tag)) {
        return false;
      }
    }
    if (!role.isEmpty()) {
      JsonNode r = device.hasNonNull("role") ? device.get("role") : device.get("device_role");
      if (!role.contains(slug(r))) {
        return false;
      }
    }
    if (!status.isEmpty()) {
      JsonNode s = device.get("status");
      String value = s == null ? null : s.isObject() ? s.path("value").asText(null) : s.asText();
      if (!status.contains(value)) {
        return false;
      }
    }
    return tenant.isEmpty() || tenant.contains(slug(device.get("tenant")));
  }

  private static String slug(JsonNode nested) {
    if (nested == null || nested.isNull()) {
      return null;
    }
    return nested.isObject() ? nested.path("slug").asText(null) : nested.asText();
  }

  /** Whether no filter is set. */
  public boolean isEmpty() {
    return query().isEmpty();
  }
}
