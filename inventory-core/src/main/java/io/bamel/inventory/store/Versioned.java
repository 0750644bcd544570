package io.bamel.inventory.store;

/** A value with the etcd mod revision it was read or written at. */
public record Versioned<T>(T value, long revision) {}
