package io.bamel.power;

/**
 * A driver whose power actions are one method, {@link #execute}, which reports what it sent (the
 * Redfish and IPMI drivers). {@link PowerDriver}'s default {@code execute} runs the four action
 * methods; here it is the other way round: {@link #powerOn}, {@link #powerOff}, {@link #powerCycle}
 * and {@link #setBootDevice} are final and each runs {@link #execute} with its {@link
 * PowerCommand}, dropping the report, so the two ways of asking for an action cannot drift apart. A
 * wrapper that intercepts both (as {@link InterceptingPowerDriver} does) sees each call once: the
 * delegation happens inside this driver, not through the wrapper.
 */
public abstract class ReportingPowerDriver implements PowerDriver {

  /** For subclasses. */
  protected ReportingPowerDriver() {}

  /**
   * Runs {@code command} and reports what was sent to the BMC, with {@link PowerDriver}'s contract
   * for the matching action method.
   */
  @Override
  public abstract PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException;

  /** {@link #execute} of {@link PowerCommand#on()}. */
  @Override
  public final void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    execute(PowerCommand.on(), endpoint, deadline);
  }

  /** {@link #execute} of {@link PowerCommand#cycle()}. */
  @Override
  public final void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    execute(PowerCommand.cycle(), endpoint, deadline);
  }

  /** {@link #execute} of {@link PowerCommand#off(PowerOffMode)}. */
  @Override
  public final void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    execute(PowerCommand.off(mode), endpoint, deadline);
  }

  /** {@link #execute} of {@link PowerCommand#boot(BootOverride)}. */
  @Override
  public final void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    execute(PowerCommand.boot(override), endpoint, deadline);
  }
}
