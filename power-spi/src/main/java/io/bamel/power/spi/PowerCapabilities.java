package io.bamel.power.spi;

/**
 * What a power interface can do beyond switching power on and off. The model, the API and the
 * controllers ask these instead of naming interfaces.
 *
 * @param bootOverride it can set a one-time boot device, so a network (PXE) {@code bootProfile} can
 *     be honoured
 * @param powerDraw it can read the machine's power draw in watts
 * @param inspection it can read the machine's hardware (CPU, memory, serial, MACs)
 * @param gracefulOff it can ask the operating system to shut down before cutting the power
 */
public record PowerCapabilities(
    boolean bootOverride, boolean powerDraw, boolean inspection, boolean gracefulOff) {

  /** Nothing beyond power on and off. */
  public static final PowerCapabilities NONE = new PowerCapabilities(false, false, false, false);
}
