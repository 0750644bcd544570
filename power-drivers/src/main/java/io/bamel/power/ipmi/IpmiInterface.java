package io.bamel.power.ipmi;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.SettingsJson;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ipmi} power interface: an IPMI v2.0 (RMCP+) BMC at {@code mgmtAddress} ({@code
 * host[:port]}). It sets boot devices, reads power draw (DCMI), inspects hardware (FRU) and shuts
 * down gracefully (a soft off). Its settings field {@code ipmi} ({@link IpmiSettings}, schema
 * {@code ipmi.json} beside this class) holds the cipher suite, the privilege level and, kept among
 * the settings' extensions so that the API schema is unchanged, the client implementation ({@code
 * native} or {@code ipmitool}; the driver checks the value); each becomes an endpoint option.
 */
public final class IpmiInterface implements PowerDriverFactory {

  /** The node spec field of the settings ({@link IpmiSettings}). */
  public static final String FIELD = "ipmi";

  private static final JsonNode SCHEMA = SettingsJson.schema(IpmiInterface.class, "ipmi.json");

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
    return FIELD;
  }

  @Override
  public void checkSettings(JsonNode settings, FieldChecks checks) {
    IpmiSettings ipmi = SettingsJson.read(settings, IpmiSettings.class, checks);
    if (ipmi != null) {
      ipmi.check(checks);
    }
  }

  @Override
  public List<String> unknownSettings(JsonNode settings) {
    return SettingsJson.unknownMembers(settings, IpmiSettings.class);
  }

  @Override
  public JsonNode settingsSchema() {
    return SCHEMA;
  }

  @Override
  public Map<String, String> options(NodeFacts node) {
    IpmiSettings settings = IpmiSettings.of(node);
    Map<String, String> options = new HashMap<>();
    if (settings == null) {
      return options;
    }
    if (settings.cipherSuite() != null) {
      options.put(IpmiDriver.OPTION_CIPHER_SUITE, settings.cipherSuite().toString());
    }
    if (settings.privilege() != null) {
      options.put(IpmiDriver.OPTION_PRIVILEGE, settings.privilege());
    }
    if (settings.implementation() != null) {
      options.put(IpmiDriver.OPTION_IMPLEMENTATION, settings.implementation());
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
}
