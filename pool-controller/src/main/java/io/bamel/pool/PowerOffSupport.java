package io.bamel.pool;

import io.bamel.inventory.model.Node;
import java.util.function.Predicate;

/**
 * Whether a node's power driver can switch it off, as the pool controller asks before picking a
 * node to power off: its power interface says ({@code PowerInterfaceType.canPowerOff}); every one
 * can except Wake-on-LAN without a {@code wakeOnLan.powerOffCommand} in the node's spec (the driver
 * then refuses power-off as unsupported). That field names one of the server's configured power-off
 * commands; whether the name is defined is checked when the node is written and again by the
 * driver, not here. A node without a power interface is left alone as before.
 */
public final class PowerOffSupport {

  private PowerOffSupport() {}

  /** What the node's interface says; {@code wol} only when it names a power-off command. */
  public static Predicate<Node> conservative() {
    return node -> node.spec().powerInterface() == null || node.spec().canPowerOff(node.id());
  }
}
