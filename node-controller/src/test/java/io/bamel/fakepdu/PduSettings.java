package io.bamel.fakepdu;

import io.bamel.power.spi.FieldChecks;

/**
 * The {@code pdu} settings of a node: which outlet of which strip feeds it. A settings type of a
 * power interface the model has never heard of: it reaches the model as opaque JSON.
 *
 * @param strip the strip's name
 * @param outlet the outlet, 1 to {@link #OUTLETS}
 */
public record PduSettings(String strip, Integer outlet) {

  /** Outlets on a strip. */
  public static final int OUTLETS = 24;

  void check(FieldChecks checks) {
    checks.check(strip != null && !strip.isBlank(), "strip", "must name the strip");
    checks.check(
        outlet != null && outlet >= 1 && outlet <= OUTLETS,
        "outlet",
        "must be an outlet from 1 to " + OUTLETS);
  }
}
