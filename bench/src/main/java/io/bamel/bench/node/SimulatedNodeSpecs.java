package io.bamel.bench.node;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.power.sim.SimulatedBmcFleet;

/**
 * The nodes of the node benchmarks whose BMCs are systems of a simulated Redfish fleet: node {@code
 * id} in pool {@code bench}, reached over Redfish at its system's address with credential {@code
 * bmc}.
 */
final class SimulatedNodeSpecs {

  private SimulatedNodeSpecs() {}

  /**
   * The spec of the node whose BMC is system {@code id} of {@code fleet}, desired {@code power}.
   */
  static NodeSpec of(SimulatedBmcFleet fleet, String id, DesiredPower power) {
    return NodeSpec.builder()
        .name(id)
        .pool("bench")
        .mgmtAddress(fleet.address(id))
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials("bmc")
        .desiredPower(power)
        .build();
  }
}
