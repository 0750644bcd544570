package io.bamel.pool.simulate;

import java.util.ArrayList;
import java.util.List;

/** Splits one CSV record (RFC 4180 quoting: {@code "a,b"}, {@code ""} for a quote) into fields. */
final class CsvFields {
  private CsvFields() {}

  static List<String> split(String line, int lineNumber) throws TraceFormatException {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          field.append(c);
        }
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
        wasQuoted = false;
      } else if (c == '"') {
        if (!field.isEmpty() || wasQuoted) {
          throw new TraceFormatException(
              lineNumber, "quote inside an unquoted field " + (fields.size() + 1));
        }
        quoted = true;
        wasQuoted = true;
      } else {
        if (wasQuoted) {
          throw new TraceFormatException(
              lineNumber, "text after the closing quote of field " + (fields.size() + 1));
        }
        field.append(c);
      }
    }
    if (quoted) {
      throw new TraceFormatException(lineNumber, "unterminated quote");
    }
    fields.add(field.toString());
    return fields;
  }

  /** The field as CSV: quoted when it holds a comma, a quote or a line break. */
  static String quote(String value) {
    if (value.indexOf(',') < 0
        && value.indexOf('"') < 0
        && value.indexOf('\n') < 0
        && value.indexOf('\r') < 0) {
      return value;
    }
    return '"' + value.replace("\"", "\"\"") + '"';
  }
}
