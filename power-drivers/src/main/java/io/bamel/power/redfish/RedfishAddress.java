package io.bamel.power.redfish;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * A parsed Redfish {@code mgmtAddress}: the service root, and the ComputerSystem URI when the
 * address names one. Pure.
 *
 * <ul>
 *   <li>{@code https://host[:port]} or any URL not containing {@code /redfish/v1}: the service root
 *       is the URL followed by {@code /redfish/v1}; the system is found from it.
 *   <li>{@code https://host/redfish/v1}: that service root.
 *   <li>{@code https://host/redfish/v1/Systems/ID}: that system, with the service root before
 *       {@code /Systems}.
 * </ul>
 *
 * @param serviceRoot the service root URL, without a trailing slash
 * @param systemUri the System URI, when the address names one
 */
public record RedfishAddress(String serviceRoot, Optional<String> systemUri) {

  private static final String ROOT = RedfishNames.SERVICE_ROOT;

  /** Parses an address. */
  public static RedfishAddress parse(String address) throws TerminalPowerException {
    String trimmed = address == null ? "" : address.trim();
    URI uri;
    try {
      uri = new URI(trimmed);
    } catch (URISyntaxException e) {
      throw invalid(trimmed);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw invalid(trimmed);
    }
    if (uri.getRawUserInfo() != null) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          "a Redfish address must not carry credentials; use the credential store");
    }
    String base = scheme + "://" + uri.getRawAuthority();
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    int root = path.indexOf(ROOT);
    if (root < 0) {
      return new RedfishAddress(base + path + ROOT, Optional.empty());
    }
    String rootPath = path.substring(0, root + ROOT.length());
    String rest = path.substring(root + ROOT.length());
    if (rest.isEmpty()) {
      return new RedfishAddress(base + rootPath, Optional.empty());
    }
    if (rest.startsWith(RedfishNames.SYSTEM_PATH_PREFIX)
        && rest.length() > RedfishNames.SYSTEM_PATH_PREFIX.length()) {
      return new RedfishAddress(base + rootPath, Optional.of(base + path));
    }
    throw invalid(trimmed);
  }

  private static TerminalPowerException invalid(String address) {
    return new TerminalPowerException(
        PowerException.Reason.INVALID_CONFIG,
        "not a Redfish address (want http(s)://host[:port] or a System URI): " + address);
  }
}
