package io.bamel.inventory.store;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;

/** Conversions between etcd's byte sequences and bamel's keys and values. */
final class Bytes {

  static final ByteSequence EMPTY = ByteSequence.from(new byte[0]);

  private Bytes() {}

  static ByteSequence of(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  static ByteSequence of(byte[] bytes) {
    return ByteSequence.from(bytes);
  }

  static String text(ByteSequence bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
