package io.bamel.power.spi;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The part of a node's spec a power interface reads: its id, addresses and any of its JSON fields
 * by wire name (its own settings field among them). The model implements it; a power interface
 * never sees the model's types, so {@code power-drivers} stays independent of the inventory.
 */
public interface NodeFacts {

  /** The node's id, or {@code null} while a spec is checked before it has one. */
  String id();

  /** The spec's {@code mgmtAddress}, or {@code null}. */
  String mgmtAddress();

  /** The spec's {@code macAddress} (canonical form), or {@code null}. */
  String macAddress();

  /** The JSON value of the spec's field {@code name}, or {@code null} when unset or null. */
  JsonNode field(String name);
}
