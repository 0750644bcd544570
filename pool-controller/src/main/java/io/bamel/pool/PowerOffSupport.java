package io.bamel.pool;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.PowerInterface;
import java.util.function.Predicate;

/**
 * Whether a node's power driver can switch it off, as the pool controller asks before picking a
 * node to power off: every interface can, except Wake-on-LAN without a {@code
 * wakeOnLan.powerOffCommand} in the node's spec (the driver then refuses power-off as unsupported).
 * That field names one of the server's configured power-off commands; whether the name is defined
 * is checked when the node is written and again by the driver, not here.
 */
public final class PowerOffSupport {

  private PowerOffSupport() {}

  /** Every interface can power off; {@code wol} only when it names a power-off command. */
  public static Predicate<Node> conservative() {
    return node ->
        node.spec().powerInterface() != PowerInterface.WOL
            || node.spec().wakeOnLan() != null && node.spec().wakeOnLan().canPowerOff();
  }
}
