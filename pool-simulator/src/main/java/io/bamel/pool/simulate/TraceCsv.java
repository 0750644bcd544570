package io.bamel.pool.simulate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads and writes pod traces as CSV, in two layouts told apart by the header (columns in any
 * order):
 *
 * <ul>
 *   <li><b>bamel</b>: {@code name,created,deleted,cpu_milli,memory_mib} and optionally {@code gpus}
 *       (a count, decimals allowed: {@code 0.46}), {@code scheduled}, {@code phase}, {@code qos};
 *       other columns are refused, so a misspelt one is not silently ignored.
 *   <li><b>Alibaba cluster-trace-gpu-v2023</b> pod lists: {@code name, cpu_milli, memory_mib,
 *       num_gpu, gpu_milli, gpu_spec, qos, pod_phase, creation_time, deletion_time,
 *       scheduled_time}; other columns (a pandas index) are ignored. A pod asks {@code num_gpu}
 *       whole GPUs, or {@code gpu_milli} thousandths of one when {@code num_gpu} is 1.
 * </ul>
 *
 * Times are whole seconds, not negative. An empty deletion time means alive until the trace's end,
 * an empty scheduled time never scheduled. Blank lines are skipped; any other line that cannot be
 * read fails the whole read with the line and column named.
 */
public final class TraceCsv {
  /** bamel's header, as {@link #write} writes it. */
  public static final List<String> BAMEL_HEADER =
      List.of(
          "name",
          "created",
          "deleted",
          "cpu_milli",
          "memory_mib",
          "gpus",
          "scheduled",
          "phase",
          "qos");

  private static final List<String> BAMEL_REQUIRED =
      List.of("name", "created", "deleted", "cpu_milli", "memory_mib");

  /** The columns of Alibaba's cluster-trace-gpu-v2023 openb_pod_list files. */
  public static final List<String> ALIBABA_HEADER =
      List.of(
          "name",
          "cpu_milli",
          "memory_mib",
          "num_gpu",
          "gpu_milli",
          "gpu_spec",
          "qos",
          "pod_phase",
          "creation_time",
          "deletion_time",
          "scheduled_time");

  private TraceCsv() {}

  /** Reads a whole trace; on any error nothing is returned. */
  public static PodTrace read(Reader in) throws IOException, TraceFormatException {
    BufferedReader lines = new BufferedReader(in);
    int lineNumber = 0;
    String headerLine;
    do {
      headerLine = lines.readLine();
      lineNumber++;
      if (headerLine == null) {
        throw new TraceFormatException(lineNumber, "no header: the file is empty");
      }
    } while (strip(headerLine).isBlank());
    Map<String, Integer> columns =
        header(CsvFields.split(strip(headerLine), lineNumber), lineNumber);
    boolean alibaba = columns.containsKey("creation_time");
    List<String> required = alibaba ? ALIBABA_HEADER : BAMEL_REQUIRED;
    for (String column : required) {
      if (!columns.containsKey(column)) {
        throw new TraceFormatException(
            lineNumber,
            "missing column "
                + column
                + " (the header must be bamel's "
                + BAMEL_REQUIRED
                + " or Alibaba's "
                + ALIBABA_HEADER
                + ")");
      }
    }
    if (!alibaba) {
      for (String column : columns.keySet()) {
        if (!BAMEL_HEADER.contains(column)) {
          throw new TraceFormatException(lineNumber, "unknown column " + column);
        }
      }
    }
    List<PodRecord> pods = new ArrayList<>();
    Set<String> names = new HashSet<>();
    String line;
    while ((line = lines.readLine()) != null) {
      lineNumber++;
      String text = strip(line);
      if (text.isBlank()) {
        continue;
      }
      Row row = new Row(CsvFields.split(text, lineNumber), columns, lineNumber);
      PodRecord pod = alibaba ? alibaba(row) : bamel(row);
      if (!names.add(pod.name())) {
        throw new TraceFormatException(lineNumber, "column name: pod " + pod.name() + " twice");
      }
      pods.add(pod);
    }
    return new PodTrace(pods);
  }

  /** Reads a trace held in a string. */
  public static PodTrace read(String csv) throws TraceFormatException {
    try {
      return read(new StringReader(csv));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the trace in bamel's layout, LF line ends; {@link #read} gives the same pods back. */
  public static void write(PodTrace trace, Writer out) throws IOException {
    out.write(String.join(",", BAMEL_HEADER));
    out.write('\n');
    for (PodRecord pod : trace.pods()) {
      out.write(CsvFields.quote(pod.name()));
      out.write(',');
      out.write(Long.toString(pod.created()));
      out.write(',');
      out.write(pod.deleted().isPresent() ? Long.toString(pod.deleted().getAsLong()) : "");
      out.write(',');
      out.write(Long.toString(pod.cpuMilli()));
      out.write(',');
      out.write(Long.toString(pod.memoryMib()));
      out.write(',');
      out.write(BigDecimal.valueOf(pod.gpuMilli(), 3).stripTrailingZeros().toPlainString());
      out.write(',');
      out.write(pod.scheduled().isPresent() ? Long.toString(pod.scheduled().getAsLong()) : "");
      out.write(',');
      out.write(CsvFields.quote(pod.phase()));
      out.write(',');
      out.write(CsvFields.quote(pod.qos()));
      out.write('\n');
    }
  }

  /** Drops a byte-order mark and a trailing CR left by a CRLF file. */
  private static String strip(String line) {
    String text = line.startsWith("\uFEFF") ? line.substring(1) : line;
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private static Map<String, Integer> header(List<String> fields, int lineNumber)
      throws TraceFormatException {
    Map<String, Integer> columns = new HashMap<>();
    for (int i = 0; i < fields.size(); i++) {
      String name = fields.get(i).strip();
      if (name.isEmpty()) {
        continue;
      }
      if (columns.put(name, i) != null) {
        throw new TraceFormatException(lineNumber, "column " + name + " twice in the header");
      }
    }
    return columns;
  }

  private static PodRecord bamel(Row row) throws TraceFormatException {
    long created = row.seconds("created");
    OptionalLong deleted = row.optionalSeconds("deleted");
    OptionalLong scheduled =
        row.has("scheduled") ? row.optionalSeconds("scheduled") : OptionalLong.of(created);
    long gpuMilli = row.has("gpus") ? row.gpuCount("gpus") : 0;
    return row.pod(
        created,
        deleted,
        row.count("cpu_milli"),
        row.count("memory_mib"),
        gpuMilli,
        scheduled,
        row.text("phase"),
        row.text("qos"));
  }

  private static PodRecord alibaba(Row row) throws TraceFormatException {
    long numGpu = row.count("num_gpu");
    long gpuMilli = row.count("gpu_milli");
    if (gpuMilli > 1000) {
      throw row.error("gpu_milli", "must be at most 1000, the share of one GPU");
    }
    long gpus = numGpu == 1 ? gpuMilli : numGpu * 1000;
    return row.pod(
        row.seconds("creation_time"),
        row.optionalSeconds("deletion_time"),
        row.count("cpu_milli"),
        row.count("memory_mib"),
        gpus,
        row.optionalSeconds("scheduled_time"),
        row.text("pod_phase"),
        row.text("qos"));
  }

  /** One data line, read by column name. */
  private record Row(List<String> fields, Map<String, Integer> columns, int line) {
    boolean has(String column) {
      return columns.containsKey(column);
    }

    String text(String column) throws TraceFormatException {
      if (!has(column)) {
        return "";
      }
      int index = columns.get(column);
      if (index >= fields.size()) {
        throw new TraceFormatException(
            line, "column " + column + ": missing (" + fields.size() + " fields, header has more)");
      }
      return fields.get(index).strip();
    }

    long count(String column) throws TraceFormatException {
      String value = text(column);
      if (value.isEmpty()) {
        throw error(column, "missing value");
      }
      long number;
      try {
        number = Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw error(column, "not a whole number: " + value);
      }
      if (number < 0) {
        throw error(column, "negative: " + value);
      }
      return number;
    }

    long seconds(String column) throws TraceFormatException {
      return count(column);
    }

    OptionalLong optionalSeconds(String column) throws TraceFormatException {
      return text(column).isEmpty() ? OptionalLong.empty() : OptionalLong.of(count(column));
    }

    long gpuCount(String column) throws TraceFormatException {
      String value = text(column);
      if (value.isEmpty()) {
        return 0;
      }
      BigDecimal gpus;
      try {
        gpus = new BigDecimal(value);
      } catch (NumberFormatException e) {
        throw error(column, "not a number: " + value);
      }
      if (gpus.signum() < 0) {
        throw error(column, "negative: " + value);
      }
      BigDecimal milli = gpus.movePointRight(3);
      if (milli.stripTrailingZeros().scale() > 0) {
        throw error(column, "finer than a thousandth of a GPU: " + value);
      }
      return milli.longValueExact();
    }

    PodRecord pod(
        long created,
        OptionalLong deleted,
        long cpuMilli,
        long memoryMib,
        long gpuMilli,
        OptionalLong scheduled,
        String phase,
        String qos)
        throws TraceFormatException {
      String name = text("name");
      if (name.isEmpty()) {
        throw error("name", "missing value");
      }
      if (deleted.isPresent() && deleted.getAsLong() < created) {
        throw error(
            deleted(), "deleted at " + deleted.getAsLong() + ", before its creation at " + created);
      }
      if (scheduled.isPresent() && scheduled.getAsLong() < created) {
        throw error(
            scheduled(),
            "scheduled at " + scheduled.getAsLong() + ", before its creation at " + created);
      }
      return new PodRecord(
          name, created, deleted, cpuMilli, memoryMib, gpuMilli, scheduled, phase, qos);
    }

    private String deleted() {
      return has("deletion_time") ? "deletion_time" : "deleted";
    }

    private String scheduled() {
      return has("scheduled_time") ? "scheduled_time" : "scheduled";
    }

    TraceFormatException error(String column, String message) {
      return new TraceFormatException(line, "column " + column + ": " + message);
    }
  }
}
