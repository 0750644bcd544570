package io.bamel.power.sim;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A serialized resource whose links get a system's path prefix ({@code /bmc/node-0001}) in front of
 * the service root when answered: the bytes are split once where a string starts with the root, and
 * joined with the prefix per answer. Every system shares one copy of each published resource.
 */
final class PrefixedJson {

  private final byte[][] pieces;

  private PrefixedJson(byte[][] pieces) {
    this.pieces = pieces;
  }

  /** Splits {@code json} before every string value that starts with {@code root}. */
  static PrefixedJson of(byte[] json, String root) {
    byte[] marker = ('"' + root).getBytes(StandardCharsets.UTF_8);
    int count = 0;
    for (int i = indexOf(json, marker, 0); i >= 0; i = indexOf(json, marker, i + 1)) {
      count++;
    }
    byte[][] pieces = new byte[count + 1][];
    int start = 0;
    int n = 0;
    for (int i = indexOf(json, marker, 0); i >= 0; i = indexOf(json, marker, i + 1)) {
      pieces[n++] = Arrays.copyOfRange(json, start, i + 1);
      start = i + 1;
    }
    pieces[n] = Arrays.copyOfRange(json, start, json.length);
    return new PrefixedJson(pieces);
  }

  /** {@code json} with {@code prefix} in front of every link to the service root. */
  static byte[] render(byte[] json, String root, byte[] prefix) {
    return of(json, root).render(prefix);
  }

  /** The bytes with {@code prefix} in front of every link. */
  byte[] render(byte[] prefix) {
    int length = prefix.length * (pieces.length - 1);
    for (byte[] piece : pieces) {
      length += piece.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (int i = 0; i < pieces.length; i++) {
      if (i > 0) {
        System.arraycopy(prefix, 0, out, at, prefix.length);
        at += prefix.length;
      }
      System.arraycopy(pieces[i], 0, out, at, pieces[i].length);
      at += pieces[i].length;
    }
    return out;
  }

  private static int indexOf(byte[] data, byte[] marker, int from) {
    outer:
    for (int i = from; i <= data.length - marker.length; i++) {
      for (int j = 0; j < marker.length; j++) {
        if (data[i + j] != marker[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
