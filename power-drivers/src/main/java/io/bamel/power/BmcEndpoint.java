package io.bamel.power;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a node's BMC (or hypervisor) is and how to reach it: built by the caller from the node's
 * spec. It never holds a secret: {@link #credentialsName} names a credential that the driver
 * resolves through its {@link io.bamel.power.credentials.CredentialSource}.
 *
 * @param address the node's {@code mgmtAddress}: a Redfish URL (service root or System URI), an
 *     IPMI {@code host[:port]}, a MAC address for Wake-on-LAN, a Proxmox {@code https://host:8006}
 * @param credentialsName the node's {@code bmcCredentials}, or {@code null} when none is needed
 * @param tls how to verify the BMC's certificate
 * @param options interface-specific settings (the keys are constants of each driver), such as the
 *     Proxmox node name and VM id or the Wake-on-LAN broadcast address
 */
public record BmcEndpoint(
    String address, String credentialsName, TlsSettings tls, Map<String, String> options) {

  /** Checks the address and copies the options. */
  public BmcEndpoint {
    Objects.requireNonNull(address, "address");
    tls = tls == null ? TlsSettings.DEFAULT : tls;
    options = options == null ? Map.of() : Map.copyOf(options);
  }

  /** An endpoint with default TLS and no options. */
  public static BmcEndpoint of(String address, String credentialsName) {
    return new BmcEndpoint(address, credentialsName, TlsSettings.DEFAULT, Map.of());
  }

  /** An option, if set and not blank. */
  public Optional<String> option(String key) {
    return Optional.ofNullable(options.get(key)).map(String::trim).filter(s -> !s.isEmpty());
  }

  /** A copy with one more option. */
  public BmcEndpoint withOption(String key, String value) {
    var copy = new java.util.HashMap<>(options);
    copy.put(key, value);
    return new BmcEndpoint(address, credentialsName, tls, copy);
  }

  /** A copy with other TLS settings. */
  public BmcEndpoint withTls(TlsSettings settings) {
    return new BmcEndpoint(address, credentialsName, settings, options);
  }
}
