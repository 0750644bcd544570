package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Instant;
import java.util.Map;

/**
 * The last readings from a node's BMC: power draw in watts and temperatures in degrees Celsius,
 * with the time they were read. Stored at {@code /baremetal/nodes/{id}/metrics}.
 */
public record NodeReadings(
    Instant readAt,
    Double powerWatts,
    Map<String, Double> temperaturesCelsius,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Copies the maps and normalises missing ones to empty. */
  public NodeReadings {
    temperaturesCelsius = Copies.map("temperaturesCelsius", temperaturesCelsius);
    extensions = Extensions.copy(extensions);
  }
}
