package io.bamel.inventory.store;

import io.bamel.inventory.model.Pool;

/**
 * A pool changed: its config, status or members. {@code previous} is null when the pool first
 * appears, {@code current} null when it has neither config, status nor members any more.
 */
public record PoolChange(String name, Pool previous, Pool current, long revision)
    implements InventoryChange {}
