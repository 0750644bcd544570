package io.bamel.power.ipmi;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ipmi} power interface: an IPMI v2.0 (RMCP+) BMC at {@code mgmtAddress} ({@code
 * host[:port]}). It sets boot devices, reads power draw (DCMI), inspects hardware (FRU) and shuts
 * down gracefully (a soft off). Its settings field {@code ipmi} holds the cipher suite, the
 * privilege level and, kept among the settings' extensions so that the API schema is unchanged, the
 * client implementation ({@code native} or {@code ipmitool}; the driver checks the value); each
 * becomes an endpoint option.
 */
public final class IpmiInterface implements PowerDriverFactory {

  @Override
  public String name() {
    return IpmiDriver.INTERFACE;
  }

  @Override
  public PowerCapabilities capabilities() {
    return new PowerCapabilities(true, true, true, true);
  }

  @Override
  public String settingsField() {
    return "ipmi";
  }

  @Override
  public Map<String, String> options(NodeFacts node) {
    JsonNode settings = node.field(settingsField());
    Map<String, String> options = new HashMap<>();
    if (settings == null) {
      return options;
    }
    copy(settings, "cipherSuite", options, IpmiDriver.OPTION_CIPHER_SUITE);
    copy(settings, "privilege", options, IpmiDriver.OPTION_PRIVILEGE);
    if (settings.path("implementation").isTextual()) {
      options.put(IpmiDriver.OPTION_IMPLEMENTATION, settings.get("implementation").asText());
    }
    return options;
  }

  @Override
  public List<CliFlag> cliFlags() {
    return List.of(
        new CliFlag(
            "--cipher-suite",
            "N",
            "ipmi: RMCP+ cipher suite (default 3)",
            IpmiDriver.OPTION_CIPHER_SUITE),
        new CliFlag(
            "--privilege",
            "LEVEL",
            "ipmi: privilege level (default ADMINISTRATOR)",
            IpmiDriver.OPTION_PRIVILEGE),
        new CliFlag(
            "--ipmi-implementation",
            "NAME",
            "ipmi: native (bamel's RMCP+ client, default) or ipmitool",
            IpmiDriver.OPTION_IMPLEMENTATION));
  }

  @Override
  public PowerDriver create(DriverContext context) {
    return new IpmiDriver(
        context.credentials(),
        context.part(IpmiImplementation.class).orElse(IpmiConfig.defaults().implementation()));
  }

  private static void copy(JsonNode settings, String field, Map<String, String> to, String key) {
    JsonNode value = settings.get(field);
    if (value != null && !value.isNull()) {
      to.put(key, value.asText());
    }
  }
}
