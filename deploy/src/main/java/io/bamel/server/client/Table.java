package io.bamel.server.client;

import java.util.ArrayList;
import java.util.List;

/**
 * A kubectl-style table: upper-case headers, columns left-aligned and separated by at least three
 * spaces, no trailing spaces, an empty cell shown as {@code <none>}. Pure text, no I/O.
 */
public final class Table {

  private static final int GAP = 3;

  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  /** A table with these column headers. */
  public Table(List<String> headers) {
    this.headers = List.copyOf(headers);
  }

  /** Adds a row; it must have one cell per header (null or empty shows as {@code <none>}). */
  public Table add(List<String> cells) {
    if (cells.size() != headers.size()) {
      throw new IllegalArgumentException(
          "a row of " + cells.size() + " cells for " + headers.size() + " columns");
    }
    List<String> row = new ArrayList<>(cells.size());
    for (String c : cells) {
      row.add(c == null || c.isEmpty() ? "<none>" : c);
    }
    rows.add(row);
    return this;
  }

  /** The table with its header line, each line ending with a newline. */
  public String render() {
    return render(true);
  }

  /** The table, with or without its header line. */
  public String render(boolean withHeaders) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    if (withHeaders) {
      line(out, headers, widths);
    }
    for (List<String> row : rows) {
      line(out, row, widths);
    }
    return out.toString();
  }

  private static void line(StringBuilder out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      line.append(cell);
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths[i] - cell.length() + GAP));
      }
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
