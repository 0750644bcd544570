package io.bamel.power.sim;

/** What a simulated system counts, per system, for tests to check (say, no duplicate power-on). */
public enum SimOperation {
  /** A GET of the service root. */
  SERVICE_ROOT,
  /** A GET of the Systems collection. */
  SYSTEMS,
  /** A GET of the ComputerSystem. */
  SYSTEM,
  /** A ComputerSystem.Reset POST of any type that was accepted (see {@code resets(type)}). */
  RESET,
  /** A ComputerSystem.Reset POST that was refused (busy, already in that state, not allowed). */
  RESET_REFUSED,
  /** A session login that succeeded. */
  LOGIN,
  /** A session logout. */
  LOGOUT,
  /** A boot override PATCH that was accepted. */
  BOOT_OVERRIDE,
  /** A boot override PATCH with an {@code If-Match} that no longer matched (answered 412). */
  PRECONDITION_FAILED,
  /** A boot override PATCH without {@code If-Match} after the System gave an ETag (428). */
  PRECONDITION_MISSING,
  /**
   * A GET of a power reading resource: {@code Power}, {@code EnvironmentMetrics}, {@code
   * PowerSubsystem}, a power supply or its metrics.
   */
  POWER,
  /** A GET of the Ethernet interfaces. */
  ETHERNET,
  /** A GET of the reset action's {@code @Redfish.ActionInfo}. */
  ACTION_INFO,
  /** A GET of a Chassis resource or the Chassis collection. */
  CHASSIS,
  /** A GET of the processors, the Manager or its host interfaces. */
  INVENTORY,
  /** A request refused with 401. */
  UNAUTHORIZED,
  /** A request answered with an injected fault (5xx, 409, dropped connection). */
  FAULT,
  /** A request without the {@code OData-Version: 4.0} header (served anyway, as BMCs do). */
  NO_ODATA_VERSION
}
