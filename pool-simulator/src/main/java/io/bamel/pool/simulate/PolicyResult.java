package io.bamel.pool.simulate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What one policy came to on one workload. The JSON names of the first eight fields are fixed
 * (issue 34): they are what {@code bamel simulate --output json} prints.
 *
 * @param policy the policy's name
 * @param energyKWh energy drawn by the whole fleet over the trace
 * @param energyVsOracle that energy over the oracle's
 * @param waitP50Seconds median extra wait of the replayed pods, beyond their start in the trace
 * @param waitP99Seconds 99th percentile of it
 * @param waitMaxSeconds its maximum
 * @param powerOnsPerServerDay power-ons per server per day of trace
 * @param unplaceablePods pods no pool can hold (not replayed)
 * @param pods pods replayed (including those alive at the start)
 * @param evictions evictions by scale-downs
 * @param pendingAtEnd pods still waiting when the trace ended (their wait runs to the end)
 * @param powerOns power-ons in all
 * @param series the time series for the picture
 */
@JsonPropertyOrder({
  "policy",
  "energyKWh",
  "energyVsOracle",
  "waitP50Seconds",
  "waitP99Seconds",
  "waitMaxSeconds",
  "powerOnsPerServerDay",
  "unplaceablePods"
})
public record PolicyResult(
    String policy,
    double energyKWh,
    double energyVsOracle,
    double waitP50Seconds,
    double waitP99Seconds,
    double waitMaxSeconds,
    double powerOnsPerServerDay,
    int unplaceablePods,
    int pods,
    int evictions,
    int pendingAtEnd,
    int powerOns,
    @JsonIgnore Series series) {

  /** This result with its energy compared to {@code oracleKWh}. */
  public PolicyResult against(double oracleKWh) {
    return new PolicyResult(
        policy,
        energyKWh,
        oracleKWh > 0 ? energyKWh / oracleKWh : Double.NaN,
        waitP50Seconds,
        waitP99Seconds,
        waitMaxSeconds,
        powerOnsPerServerDay,
        unplaceablePods,
        pods,
        evictions,
        pendingAtEnd,
        powerOns,
        series);
  }
}
