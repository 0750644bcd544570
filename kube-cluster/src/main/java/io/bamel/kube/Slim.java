package io.bamel.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * The identity-only copies an informer's store keeps ({@link MappedStore}): name, namespace, uid
 * and resourceVersion, which is what the informer compares and keys by. Pure.
 */
final class Slim {

  private Slim() {}

  static Pod pod(Pod full) {
    Pod p = new Pod();
    p.setApiVersion(full.getApiVersion());
    p.setKind(full.getKind());
    p.setMetadata(identity(full));
    return p;
  }

  static Node node(Node full) {
    Node n = new Node();
    n.setApiVersion(full.getApiVersion());
    n.setKind(full.getKind());
    n.setMetadata(identity(full));
    return n;
  }

  private static ObjectMeta identity(HasMetadata full) {
    ObjectMeta m = full.getMetadata();
    return new ObjectMetaBuilder()
        .withName(m.getName())
        .withNamespace(m.getNamespace())
        .withUid(m.getUid())
        .withResourceVersion(m.getResourceVersion())
        .build();
  }
}
