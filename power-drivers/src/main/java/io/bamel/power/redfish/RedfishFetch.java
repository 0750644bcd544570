package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.PowerException;
import java.util.Optional;

/** Reads one Redfish resource: its body, or empty when the BMC answers 404. */
@FunctionalInterface
interface RedfishFetch {

  /**
   * @param uri an absolute URI
   * @throws PowerException any other failure
   */
  Optional<JsonNode> get(String uri) throws PowerException;
}
