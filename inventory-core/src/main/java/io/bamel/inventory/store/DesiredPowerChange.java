package io.bamel.inventory.store;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.PowerState;

/**
 * One node's new desired power state within a pool decision: the spec revision the decision was
 * based on (the write fails if the spec changed since), the new state, and the event recording why.
 */
public record DesiredPowerChange(
    String id, long expectedRevision, PowerState powerState, NodeEvent event) {}
