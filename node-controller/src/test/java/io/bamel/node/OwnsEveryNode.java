package io.bamel.node;

import io.bamel.inventory.store.WriteFence;
import java.util.Optional;
import java.util.function.Consumer;

/** The ownership of a lone, always-active controller: it owns every node, without a fence. */
final class OwnsEveryNode implements Ownership {

  /** The one instance tests share. */
  static final Ownership INSTANCE = new OwnsEveryNode();

  private OwnsEveryNode() {}

  @Override
  public Optional<WriteFence> fence(String id) {
    return Optional.empty();
  }

  @Override
  public boolean owns(String id) {
    return true;
  }

  @Override
  public boolean active() {
    return true;
  }

  @Override
  public String component() {
    return "node-controller";
  }

  @Override
  public void listen(Consumer<Handover> listener) {}
}
