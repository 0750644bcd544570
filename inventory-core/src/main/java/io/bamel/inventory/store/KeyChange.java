package io.bamel.inventory.store;

import io.etcd.jetcd.KeyValue;

/** A key's new value at a mod revision; {@code value} is null when the key was deleted. */
record KeyChange(String key, byte[] value, long modRevision) {

  static KeyChange of(KeyValue kv) {
    return new KeyChange(Bytes.text(kv.getKey()), kv.getValue().getBytes(), kv.getModRevision());
  }
}
