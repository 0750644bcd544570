package io.bamel.power.redfish;

import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.PowerCapabilities;

/**
 * The {@code redfish} power interface: a DMTF Redfish service at {@code mgmtAddress} (its service
 * root or a System URI). It sets boot overrides, reads power draw, inspects hardware and shuts down
 * gracefully; it has no settings field of its own ({@code bmcTls}, shared by every interface that
 * speaks TLS, stays a field of the node).
 */
public final class RedfishInterface implements PowerDriverFactory {

  @Override
  public String name() {
    return RedfishDriver.INTERFACE;
  }

  @Override
  public PowerCapabilities capabilities() {
    return new PowerCapabilities(true, true, true, true);
  }

  @Override
  public PowerDriver create(DriverContext context) {
    return new RedfishDriver(context.credentials());
  }
}
