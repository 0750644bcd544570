package io.bamel.pool;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.PowerInterface;
import java.util.function.Predicate;

/**
 * Whether a node's power driver can switch it off, as the pool controller asks before picking a
 * node to power off. The server knows the driver settings and should pass its own predicate; the
 * {@linkplain #conservative() default} assumes every interface can, except Wake-on-LAN (which can
 * only with a power-off command the pool controller cannot see).
 */
public final class PowerOffSupport {

  private PowerOffSupport() {}

  /** Every interface but {@code wol} can power off. */
  public static Predicate<Node> conservative() {
    return node -> node.spec().powerInterface() != PowerInterface.WOL;
  }
}
