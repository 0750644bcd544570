package io.bamel.inventory.store;

/**
 * A leadership guard for controller writes: the write commits only while {@code key} still has the
 * create revision {@code createRevision}, i.e. while the writer's leadership key (created with its
 * lease) exists. A deposed leader's writes fail with {@link FencedException}.
 */
public record WriteFence(String key, long createRevision) {}
