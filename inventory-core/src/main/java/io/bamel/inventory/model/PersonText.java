package io.bamel.inventory.model;

import java.util.regex.Pattern;

/**
 * Whether a text may be shown to a client as it is: it names no Java class or package and no
 * exception, so it was written for a person rather than by a library. A pure function, used where a
 * message comes from a framework rather than from bamel: the API's error answers, and the sync
 * report's reasons for a write the store refused.
 */
public final class PersonText {

  /** A qualified Java name, an exception, or a stack frame. */
  static final Pattern TECHNICAL =
      Pattern.compile(
          "(java|javax|jakarta|sun|kotlin|com\\.fasterxml|io\\.javalin|org\\.eclipse|io\\.bamel|"
              + "io\\.etcd|io\\.grpc|io\\.netty)\\.[a-zA-Z]"
              + "|Exception|Error:|\\tat |\\$[A-Z]|`");

  private PersonText() {}

  /** Whether {@code text} has none of the marks of a library's message. */
  public static boolean isPlain(String text) {
    return !TECHNICAL.matcher(text).find();
  }

  /** {@code text} when it is plain and at most 300 characters, else {@code fallback}. */
  public static String or(String text, String fallback) {
    return text != null && text.length() <= 300 && isPlain(text) ? text : fallback;
  }
}
