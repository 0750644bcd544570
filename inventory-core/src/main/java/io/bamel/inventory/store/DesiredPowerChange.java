package io.bamel.inventory.store;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;

/**
 * One node's new desired power state within a pool decision: the spec revision the decision was
 * based on (the write fails if the spec changed since), the new state, and the event recording why.
 */
public record DesiredPowerChange(
    String id, long expectedRevision, DesiredPower desiredPower, NodeEvent event) {}
