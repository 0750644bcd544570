package io.bamel.power;

import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks the {@link PowerDriver} for a node's {@code powerInterface}. Every registered driver is
 * wrapped so that its calls are counted and timed ({@link PowerMetrics}). Thread-safe.
 *
 * <p>{@link io.bamel.power.Drivers#standard} builds one with the driver of every registered {@link
 * PowerDriverFactory}.
 */
public final class PowerDriverRegistry implements AutoCloseable {

  private final Map<String, PowerDriver> drivers = new ConcurrentHashMap<>();
  private final PowerMetrics metrics;
  private final Clock clock;

  /** An empty registry recording to {@code metrics}. */
  public PowerDriverRegistry(PowerMetrics metrics, Clock clock) {
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * Registers a driver under its {@link PowerDriver#powerInterface()}, replacing (and closing) any
   * previous one; returns this registry.
   */
  public PowerDriverRegistry register(PowerDriver driver) {
    String key = normalize(driver.powerInterface());
    PowerDriver previous = drivers.put(key, new InstrumentedPowerDriver(driver, metrics, clock));
    if (previous != null) {
      previous.close();
    }
    return this;
  }

  /**
   * The driver for {@code powerInterface} (case-insensitive).
   *
   * @throws TerminalPowerException {@link PowerException.Reason#UNSUPPORTED} for an interface
   *     nobody registered
   */
  public PowerDriver driver(String powerInterface) throws TerminalPowerException {
    PowerDriver driver = powerInterface == null ? null : drivers.get(normalize(powerInterface));
    if (driver == null) {
      throw new TerminalPowerException(
          PowerException.Reason.UNSUPPORTED,
          "no power driver for interface '" + powerInterface + "' (known: " + interfaces() + ")");
    }
    return driver;
  }

  /** The registered interfaces, sorted. */
  public Set<String> interfaces() {
    return new TreeSet<>(drivers.keySet());
  }

  /** The metrics every driver records to. */
  public PowerMetrics metrics() {
    return metrics;
  }

  private static String normalize(String powerInterface) {
    return powerInterface.trim().toLowerCase(Locale.ROOT);
  }

  /** Closes every driver. */
  @Override
  public void close() {
    drivers.values().forEach(PowerDriver::close);
    drivers.clear();
  }
}
