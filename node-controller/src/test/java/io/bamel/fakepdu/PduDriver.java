package io.bamel.fakepdu;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.TerminalPowerException;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code pdu} driver: outlets kept in memory, keyed by {@code address/strip/outlet}, each
 * drawing {@link #WATTS_ON} when on. Shared by every instance so a test can look at an outlet.
 */
final class PduDriver implements PowerDriver {

  /** What an outlet that is on draws. */
  static final double WATTS_ON = 180.0;

  private static final Map<String, Boolean> OUTLETS = new ConcurrentHashMap<>();

  /** Whether the outlet {@code address/strip/outlet} is on. */
  public static boolean isOn(String outletKey) {
    return OUTLETS.getOrDefault(outletKey, false);
  }

  @Override
  public String powerInterface() {
    return PduInterface.NAME;
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return OUTLETS.getOrDefault(key(endpoint), false) ? BmcPowerState.ON : BmcPowerState.OFF;
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    OUTLETS.put(key(endpoint), true);
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    OUTLETS.put(key(endpoint), false);
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    OUTLETS.put(key(endpoint), true);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    throw new TerminalPowerException(
        PowerException.Reason.UNSUPPORTED, "a power strip sets no boot device");
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return OptionalDouble.of(OUTLETS.getOrDefault(key(endpoint), false) ? WATTS_ON : 0.0);
  }

  @Override
  public void close() {}

  private static String key(BmcEndpoint endpoint) throws PowerException {
    String outlet =
        endpoint
            .option(PduInterface.OPTION_OUTLET)
            .orElseThrow(
                () ->
                    new TerminalPowerException(
                        PowerException.Reason.INVALID_CONFIG, "no outlet in the endpoint"));
    return endpoint.address() + "/" + outlet;
  }
}
