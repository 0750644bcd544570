package io.bamel.inventory.api.nodes;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/**
 * The free-text filter {@code q} of a node listing: a node matches when the text, compared without
 * regard to case, occurs in its id, serial, MAC address, the host of its management address (no
 * scheme, port or path: {@code 192.0.2.7} of {@code https://192.0.2.7:8443/redfish/v1}), rack,
 * site, or any label key or value. Pure.
 */
final class FreeText {

  private FreeText() {}

  /** Whether {@code needle} (already lower-cased) occurs in one of the node's searched fields. */
  static boolean matches(Node node, String needle) {
    NodeSpec s = node.spec();
    if (contains(node.id(), needle)
        || contains(s.serial(), needle)
        || contains(s.macAddress(), needle)
        || contains(host(s.mgmtAddress()), needle)
        || contains(s.rack(), needle)
        || contains(s.site(), needle)) {
      return true;
    }
    for (Map.Entry<String, String> label : s.labels().entrySet()) {
      if (contains(label.getKey(), needle) || contains(label.getValue(), needle)) {
        return true;
      }
    }
    return false;
  }

  private static boolean contains(String field, String needle) {
    return field != null && field.toLowerCase(Locale.ROOT).contains(needle);
  }

  /**
   * The host of a management address: the URL's host, or the text without a port ({@code
   * [2001:db8::5]:623} is {@code 2001:db8::5}); null for null.
   */
  static String host(String address) {
    if (address == null) {
      return null;
    }
    if (address.contains("://")) {
      try {
        String host = new URI(address).getHost();
        return host == null ? address : unbracket(host);
      } catch (URISyntaxException e) {
        return address;
      }
    }
    if (address.startsWith("[")) {
      int close = address.indexOf(']');
      return close > 0 ? address.substring(1, close) : address;
    }
    int colon = address.indexOf(':');
    return colon >= 0 && colon == address.lastIndexOf(':') ? address.substring(0, colon) : address;
  }

  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }
}
