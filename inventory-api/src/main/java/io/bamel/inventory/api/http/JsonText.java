package io.bamel.inventory.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * Checks that a request body is Unicode text as JSON requires (RFC 8259), as pure functions:
 * strictly UTF-8 (no byte order mark, no NUL byte, no overlong form, no encoded surrogate, nothing
 * above U+10FFFF), and once parsed, no string or member name holding an unpaired UTF-16 surrogate
 * written as an escape ({@code "\ud800"}), which names no character and could not be stored as
 * UTF-8.
 */
final class JsonText {

  private JsonText() {}

  /** Why {@code body} is not strict UTF-8 JSON text, or null when it is. */
  static String encodingProblem(byte[] body) {
    if (body.length >= 3
        && (body[0] & 0xff) == 0xef
        && (body[1] & 0xff) == 0xbb
        && (body[2] & 0xff) == 0xbf) {
      return "the body starts with a byte order mark; send UTF-8 JSON without one";
    }
    int i = 0;
    while (i < body.length) {
      int b = body[i] & 0xff;
      if (b == 0) {
        return "the body must be UTF-8 JSON; it has a NUL byte at byte " + i;
      }
      if (b < 0x80) {
        i++;
        continue;
      }
      int length;
      int min;
      if (b >= 0xc2 && b <= 0xdf) {
        length = 2;
        min = 0x80;
      } else if (b >= 0xe0 && b <= 0xef) {
        length = 3;
        min = 0x800;
      } else if (b >= 0xf0 && b <= 0xf4) {
        length = 4;
        min = 0x10000;
      } else {
        return notUtf8(i);
      }
      if (i + length > body.length) {
        return notUtf8(i);
      }
      int cp = b & (0xff >> (length + 1));
      for (int k = 1; k < length; k++) {
        int c = body[i + k] & 0xff;
        if ((c & 0xc0) != 0x80) {
          return notUtf8(i);
        }
        cp = cp << 6 | c & 0x3f;
      }
      if (cp < min || cp > 0x10ffff || cp >= 0xd800 && cp <= 0xdfff) {
        return notUtf8(i);
      }
      i += length;
    }
    return null;
  }

  private static String notUtf8(int at) {
    return "the body is not valid UTF-8 at byte " + at;
  }

  /**
   * Whether strict UTF-8 {@code body} may spell a UTF-16 surrogate as an escape ({@code \\uD800} to
   * {@code \\uDFFF}, any case): false means no string of it can hold an unpaired surrogate, so the
   * tree need not be walked ({@link #surrogateProblem}). True for some bodies that hold none (an
   * escaped backslash followed by such text).
   */
  static boolean maySpellSurrogate(byte[] body) {
    for (int i = 0; i + 3 < body.length; i++) {
      if (body[i] == '\\'
          && body[i + 1] == 'u'
          && (body[i + 2] == 'd' || body[i + 2] == 'D')
          && highNibbleOfSurrogate(body[i + 3])) {
        return true;
      }
    }
    return false;
  }

  /** The third hex digit of a surrogate's escape: 8 to F. */
  private static boolean highNibbleOfSurrogate(byte b) {
    return b == '8' || b == '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F';
  }

  /** Why {@code tree} holds text that is not Unicode characters, or null when it does not. */
  static String surrogateProblem(JsonNode tree) {
    Deque<Map.Entry<String, JsonNode>> todo = new ArrayDeque<>();
    todo.push(Map.entry("", tree));
    while (!todo.isEmpty()) {
      Map.Entry<String, JsonNode> next = todo.pop();
      String path = next.getKey();
      JsonNode node = next.getValue();
      if (node.isTextual()) {
        if (unpaired(node.textValue())) {
          return "a string "
              + at(path)
              + "holds an unpaired UTF-16 surrogate escape (such as"
              + " \\ud800), which is not a character";
        }
      } else if (node.isObject()) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          if (unpaired(field.getKey())) {
            return "a member name "
                + at(path)
                + "holds an unpaired UTF-16 surrogate escape"
                + " (such as \\ud800), which is not a character";
          }
          String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
          todo.push(Map.entry(child, field.getValue()));
        }
      } else if (node.isArray()) {
        for (int i = 0; i < node.size(); i++) {
          todo.push(Map.entry(path + "[" + i + "]", node.get(i)));
        }
      }
    }
    return null;
  }

  private static String at(String path) {
    if (path.isEmpty()) {
      return "";
    }
    String safe = path.length() > 64 ? path.substring(0, 64) + "..." : path;
    return "at " + safe.replaceAll("[^\\x20-\\x7e]", "?") + " ";
  }

  /** Whether {@code s} has a high surrogate not followed by a low one, or a lone low one. */
  static boolean unpaired(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return true;
        }
      } else if (Character.isLowSurrogate(c)) {
        return true;
      }
    }
    return false;
  }
}
