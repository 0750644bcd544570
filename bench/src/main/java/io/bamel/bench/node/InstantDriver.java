package io.bamel.bench.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerOffMode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-memory "BMC" per address that answers at once and records when each power-on arrived
 * ({@link System#nanoTime()}), so a benchmark measures the controller, not a network.
 */
final class InstantDriver implements PowerDriver {

  private final Map<String, BmcPowerState> states = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<Long>> powerOnAt = new ConcurrentHashMap<>();

  /** Completes with the {@link System#nanoTime()} of the first power-on of {@code address}. */
  CompletableFuture<Long> powerOnAt(String address) {
    return powerOnAt.computeIfAbsent(address, a -> new CompletableFuture<>());
  }

  @Override
  public String powerInterface() {
    return "redfish";
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) {
    return states.getOrDefault(endpoint.address(), BmcPowerState.OFF);
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) {
    powerOnAt(endpoint.address()).complete(System.nanoTime());
    states.put(endpoint.address(), BmcPowerState.ON);
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline) {
    states.put(endpoint.address(), BmcPowerState.OFF);
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) {
    states.put(endpoint.address(), BmcPowerState.ON);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline) {}

  @Override
  public void close() {}
}
