package io.bamel.inventory.model;

/** An enum whose constants have a JSON name (lowercase, with dashes) distinct from the Java one. */
public interface JsonEnum {

  /** The name used in JSON, in the API and in etcd. */
  String json();
}
