/**
 * bamel's connection to etcd: how the jetcd client is tuned ({@link
 * io.bamel.inventory.connection.EtcdClientTuning}: gRPC keepalive to find dead connections) and how
 * it reconnects after an outage ({@link io.bamel.inventory.connection.EtcdReconnector}: a bounded
 * reconnect delay, a fresh attempt as soon as an endpoint answers, and the INFO line naming the
 * outage's length).
 */
package io.bamel.inventory.connection;
