package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import java.util.List;

/**
 * One page of a node listing read at one etcd revision.
 *
 * @param items nodes in id order
 * @param next the id to continue after, or null when this is the last page
 * @param revision the revision every page of the listing is read at
 */
public record NodePage(List<Node> items, String next, long revision) {}
