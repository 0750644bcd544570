package io.bamel.power;

import java.util.OptionalDouble;

/**
 * Controls power through one power interface ({@code redfish}, {@code ipmi}, {@code wol}, {@code
 * proxmox}). One instance serves every node of its interface.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Thread-safe: any number of threads may call it for any nodes at once. Drivers serialize
 *       calls to one BMC themselves where the BMC needs it.
 *   <li>Every call returns or throws by its {@link Deadline}; a driver never waits past it (a late
 *       call fails with a transient {@link PowerException.Reason#TIMEOUT}).
 *   <li>Failures are {@link PowerException}s, either {@link TransientPowerException} (retry later)
 *       or {@link TerminalPowerException} (bad credentials, unsupported, not found, bad
 *       configuration). No message, log line or metric of a driver contains a secret.
 *   <li>{@link #powerOn}, a forced {@link #powerOff} and {@link #powerCycle} return once the BMC
 *       accepted the request; the change may take effect later ({@link #bmcPowerState} reports
 *       {@link BmcPowerState#POWERING_ON} and the like meanwhile). Asking for the state the system
 *       is already in (or already heading to) succeeds without a second request taking effect.
 *   <li>A {@link PowerOffMode#GRACEFUL graceful} power-off returns once the system is off, forcing
 *       it off after the driver's graceful timeout (bounded by the deadline).
 * </ul>
 */
public interface PowerDriver extends AutoCloseable {

  /** The power interface this driver serves, as in a node's {@code powerInterface}. */
  String powerInterface();

  /** Reads the power state. */
  BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) throws PowerException;

  /** Switches the system on. */
  void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException;

  /** Switches the system off. */
  void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline) throws PowerException;

  /** Power-cycles the system (off, then on). */
  void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException;

  /** Sets the device of the next boot (or of every boot, when persistent). */
  void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException;

  /**
   * Runs a power action and says what was sent: the same as {@link #powerOn}, {@link #powerOff},
   * {@link #powerCycle} or {@link #setBootDevice}, with the same contract, but the result names the
   * requests that went to the BMC (the Redfish {@code ResetType} values, say), whether a graceful
   * off ended with the power cut, and any fallback taken. Callers that write events use this.
   *
   * <p>The default runs the matching method and answers {@link PowerResult#unreported()}.
   */
  default PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    switch (command) {
      case PowerCommand.On on -> powerOn(endpoint, deadline);
      case PowerCommand.Off off -> powerOff(endpoint, off.mode(), deadline);
      case PowerCommand.Cycle cycle -> powerCycle(endpoint, deadline);
      case PowerCommand.Boot boot -> setBootDevice(endpoint, boot.override(), deadline);
    }
    return PowerResult.unreported();
  }

  /**
   * Reads what the BMC knows about the hardware.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#UNSUPPORTED} where the interface
   *     cannot tell (the default)
   */
  default HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    throw TerminalPowerException.unsupported(powerInterface(), "inspect");
  }

  /**
   * Reads the current power draw in watts; empty when this BMC does not report it.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#UNSUPPORTED} where the interface
   *     never can (the default)
   */
  default OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    throw TerminalPowerException.unsupported(powerInterface(), "power reading");
  }

  /** Releases sessions and connections (Redfish sessions are logged out). Never throws. */
  @Override
  void close();
}
