package io.bamel.pool;

/** A pod the pool serves that cannot be scheduled (PodScheduled=False, Unschedulable). */
public record PendingPod(String name, Resources requests) {}
