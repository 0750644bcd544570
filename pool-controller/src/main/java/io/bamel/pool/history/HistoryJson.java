package io.bamel.pool.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The JSON form of a {@link DemandHistory}, as kept in etcd at {@code
 * /baremetal/pools/{pool}/history}. The field names are a wire format: they never change; a change
 * of meaning takes a new {@code version}.
 *
 * <pre>
 * {"version":1,                              this form; a reader refuses any other
 *  "openHour":"2026-11-23T10:00:00Z",        the hour being observed (absent: none yet)
 *  "openPeak":{"cpu":12.5,"memory":4.295E10}, its running peak so far, by resource
 *  "learnedAtHour":[0, 493521, ...],         168 integers, one per hour of the week (index 0 is
 *                                            Monday 00:00-01:00 UTC): the hour last learned, in
 *                                            hours since 1970-01-01T00:00Z; 0 for never
 *  "lowerInARow":[0, 1, ...],                168 integers 0 to 3, same indexes: how many closed
 *                                            hours in a row had a lower peak than the bucket
 *  "peaks":{"cpu":[0, 48.5, ...], ...}}      per resource, 168 decayed peaks, same indexes;
 *                                            a resource whose 168 are all 0 is left out
 * </pre>
 *
 * Amounts are plain numbers in the resource's unit (cores, bytes, devices), at most {@value
 * DemandHistory#SIGNIFICANT_DIGITS} significant digits. About 5 KB for cpu, memory and gpu over a
 * whole week learned; never more than {@value #MAX_BYTES} bytes.
 *
 * <p>{@link #read} refuses, with a {@link HistoryFormatException} naming the field, anything else:
 * not JSON or over {@value #MAX_BYTES} bytes, another version, arrays of another length, an amount
 * negative, not finite or not a number, more than {@value DemandHistory#MAX_RESOURCES} resource
 * names, a learned hour that is not of its bucket's hour of the week or is not before the open
 * hour, an open hour not on a whole hour. Unknown fields are ignored (a newer bamel may add some
 * without changing the meaning of these).
 */
public final class HistoryJson {

  /** The version this class writes and reads. */
  public static final int VERSION = 1;

  /**
   * The largest value read (a full week of {@value DemandHistory#MAX_RESOURCES} resources fits).
   */
  public static final int MAX_BYTES = 64 * 1024;

  static final String F_VERSION = "version";
  static final String F_OPEN_HOUR = "openHour";
  static final String F_OPEN_PEAK = "openPeak";
  static final String F_LEARNED_AT_HOUR = "learnedAtHour";
  static final String F_LOWER_IN_A_ROW = "lowerInARow";
  static final String F_PEAKS = "peaks";

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxDocumentLength(MAX_BYTES)
                  .maxNestingDepth(4)
                  .maxNumberLength(32)
                  .maxStringLength(300)
                  .build())
          .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

  private HistoryJson() {}

  /** The JSON of {@code history}, UTF-8; the same history always gives the same bytes. */
  public static byte[] write(DemandHistory history) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField(F_VERSION, VERSION);
      Instant open = history.openHour();
      if (open != null) {
        g.writeStringField(F_OPEN_HOUR, open.toString());
        g.writeObjectFieldStart(F_OPEN_PEAK);
        for (Map.Entry<String, Double> e : new TreeMap<>(history.openPeak()).entrySet()) {
          g.writeFieldName(e.getKey());
          number(g, e.getValue());
        }
        g.writeEndObject();
      }
      g.writeArrayFieldStart(F_LEARNED_AT_HOUR);
      for (int b = 0; b < DemandHistory.HOURS_PER_WEEK; b++) {
        g.writeNumber(history.learnedAtHour(b));
      }
      g.writeEndArray();
      g.writeArrayFieldStart(F_LOWER_IN_A_ROW);
      for (int b = 0; b < DemandHistory.HOURS_PER_WEEK; b++) {
        g.writeNumber(history.lowerInARow(b));
      }
      g.writeEndArray();
      g.writeObjectFieldStart(F_PEAKS);
      List<String> names = history.names();
      for (int i = 0; i < names.size(); i++) {
        if (allZero(history, i)) {
          continue; // a name of the open peak only
        }
        g.writeArrayFieldStart(names.get(i));
        for (int b = 0; b < DemandHistory.HOURS_PER_WEEK; b++) {
          number(g, history.peak(i, b));
        }
        g.writeEndArray();
      }
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return out.toByteArray();
  }

  /**
   * The history {@code json} holds.
   *
   * @throws HistoryFormatException when it is not a version-{@value #VERSION} demand history within
   *     the bounds above
   */
  public static DemandHistory read(byte[] json) {
    if (json.length > MAX_BYTES) {
      throw new HistoryFormatException(
          "the value has " + json.length + " bytes; at most " + MAX_BYTES + " are read");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      var where = e.getLocation();
      throw new HistoryFormatException(
          "not valid JSON"
              + (where == null
                  ? ""
                  : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (root == null || !root.isObject()) {
      throw new HistoryFormatException("not a JSON object");
    }
    JsonNode version = root.get(F_VERSION);
    if (version == null || !version.isIntegralNumber()) {
      throw new HistoryFormatException("no integer \"version\"");
    }
    if (!version.canConvertToInt() || version.intValue() != VERSION) {
      throw new HistoryFormatException(
          "version " + version.asText() + " is not supported (this bamel reads " + VERSION + ")");
    }
    long openHour = openHour(root.get(F_OPEN_HOUR));
    Map<String, Double> openPeak = amounts(root.get(F_OPEN_PEAK), F_OPEN_PEAK);
    long[] learned = learnedAtHour(root.get(F_LEARNED_AT_HOUR), openHour);
    int[] lowers = lowerInARow(root.get(F_LOWER_IN_A_ROW), learned);
    Map<String, double[]> rows = peaks(root.get(F_PEAKS));
    if (openHour == DemandHistory.NO_HOUR && !openPeak.isEmpty()) {
      throw new HistoryFormatException("\"openPeak\" without \"openHour\"");
    }
    TreeSet<String> names = new TreeSet<>(rows.keySet());
    names.addAll(openPeak.keySet());
    if (names.size() > DemandHistory.MAX_RESOURCES) {
      throw new HistoryFormatException(
          names.size() + " resource names; at most " + DemandHistory.MAX_RESOURCES);
    }
    List<String> ordered = new ArrayList<>(names);
    double[][] peaks = new double[ordered.size()][];
    for (int i = 0; i < ordered.size(); i++) {
      peaks[i] = rows.getOrDefault(ordered.get(i), new double[DemandHistory.HOURS_PER_WEEK]);
    }
    return DemandHistory.of(ordered, peaks, learned, lowers, openHour, openPeak);
  }

  private static long openHour(JsonNode node) {
    if (node == null || node.isNull()) {
      return DemandHistory.NO_HOUR;
    }
    if (!node.isTextual()) {
      throw new HistoryFormatException("\"openHour\" is not a time");
    }
    Instant at;
    try {
      at = Instant.parse(node.textValue());
    } catch (DateTimeParseException e) {
      throw new HistoryFormatException("\"openHour\" is not an ISO-8601 UTC time");
    }
    long seconds = at.getEpochSecond();
    if (at.getNano() != 0 || seconds % 3600 != 0) {
      throw new HistoryFormatException("\"openHour\" is not on a whole hour");
    }
    long hour = seconds / 3600;
    if (hour <= 0 || hour > DemandHistory.MAX_EPOCH_HOUR) {
      throw new HistoryFormatException("\"openHour\" is not between 1970 and 9999");
    }
    return hour;
  }

  private static long[] learnedAtHour(JsonNode node, long openHour) {
    if (node == null || !node.isArray() || node.size() != DemandHistory.HOURS_PER_WEEK) {
      throw new HistoryFormatException(
          "\"learnedAtHour\" is not an array of " + DemandHistory.HOURS_PER_WEEK + " integers");
    }
    long[] learned = new long[DemandHistory.HOURS_PER_WEEK];
    for (int b = 0; b < learned.length; b++) {
      JsonNode v = node.get(b);
      if (!v.isIntegralNumber() || !v.canConvertToLong()) {
        throw new HistoryFormatException("\"learnedAtHour\"[" + b + "] is not an integer");
      }
      long hour = v.longValue();
      if (hour == 0) {
        continue;
      }
      if (hour < 0 || hour > DemandHistory.MAX_EPOCH_HOUR) {
        throw new HistoryFormatException("\"learnedAtHour\"[" + b + "] is out of range");
      }
      if (DemandHistory.hourOfWeek(hour) != b) {
        throw new HistoryFormatException(
            "\"learnedAtHour\"[" + b + "] is not an hour of that hour of the week");
      }
      if (openHour == DemandHistory.NO_HOUR || hour >= openHour) {
        throw new HistoryFormatException("\"learnedAtHour\"[" + b + "] is not before \"openHour\"");
      }
      learned[b] = hour;
    }
    return learned;
  }

  private static int[] lowerInARow(JsonNode node, long[] learned) {
    if (node == null || !node.isArray() || node.size() != DemandHistory.HOURS_PER_WEEK) {
      throw new HistoryFormatException(
          "\"lowerInARow\" is not an array of " + DemandHistory.HOURS_PER_WEEK + " integers");
    }
    int[] lowers = new int[DemandHistory.HOURS_PER_WEEK];
    for (int b = 0; b < lowers.length; b++) {
      JsonNode v = node.get(b);
      if (!v.isIntegralNumber()
          || !v.canConvertToInt()
          || v.intValue() < 0
          || v.intValue() >= DemandHistory.FORGET_AFTER_LOWER) {
        throw new HistoryFormatException(
            "\"lowerInARow\"["
                + b
                + "] is not an integer from 0 to "
                + (DemandHistory.FORGET_AFTER_LOWER - 1));
      }
      if (v.intValue() != 0 && learned[b] == 0) {
        throw new HistoryFormatException(
            "\"lowerInARow\"[" + b + "] counts lower peaks of a bucket never learned");
      }
      lowers[b] = v.intValue();
    }
    return lowers;
  }

  private static Map<String, double[]> peaks(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new HistoryFormatException("\"peaks\" is not an object");
    }
    if (node.size() > DemandHistory.MAX_RESOURCES) {
      throw new HistoryFormatException(
          "\"peaks\" has " + node.size() + " resources; at most " + DemandHistory.MAX_RESOURCES);
    }
    Map<String, double[]> out = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String name = name(e.getKey(), F_PEAKS);
      JsonNode row = e.getValue();
      if (!row.isArray() || row.size() != DemandHistory.HOURS_PER_WEEK) {
        throw new HistoryFormatException(
            "\"peaks\"."
                + name
                + " is not an array of "
                + DemandHistory.HOURS_PER_WEEK
                + " amounts");
      }
      double[] amounts = new double[DemandHistory.HOURS_PER_WEEK];
      for (int b = 0; b < amounts.length; b++) {
        amounts[b] = amount(row.get(b), "\"peaks\"." + name + "[" + b + "]");
      }
      out.put(name, amounts);
    }
    return out;
  }

  private static Map<String, Double> amounts(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw new HistoryFormatException("\"" + field + "\" is not an object");
    }
    if (node.size() > DemandHistory.MAX_RESOURCES) {
      throw new HistoryFormatException(
          "\""
              + field
              + "\" has "
              + node.size()
              + " resources; at most "
              + DemandHistory.MAX_RESOURCES);
    }
    Map<String, Double> out = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String name = name(e.getKey(), field);
      out.put(name, amount(e.getValue(), "\"" + field + "\"." + name));
    }
    return out;
  }

  private static String name(String name, String field) {
    if (!DemandHistory.RESOURCE_NAME.matcher(name).matches()) {
      throw new HistoryFormatException("\"" + field + "\" has a key that is not a resource name");
    }
    return name;
  }

  private static double amount(JsonNode node, String where) {
    if (node == null || !node.isNumber()) {
      throw new HistoryFormatException(where + " is not a number");
    }
    double v = node.doubleValue();
    if (!Double.isFinite(v)) {
      throw new HistoryFormatException(where + " is not finite");
    }
    if (v < 0) {
      throw new HistoryFormatException(where + " is negative");
    }
    return v;
  }

  private static boolean allZero(DemandHistory history, int name) {
    for (int b = 0; b < DemandHistory.HOURS_PER_WEEK; b++) {
      if (history.peak(name, b) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Writes {@code v} compactly: integers below ten million without a fraction. */
  private static void number(JsonGenerator g, double v) throws IOException {
    if (v == Math.rint(v) && Math.abs(v) < 1e7) {
      g.writeNumber((long) v);
    } else {
      g.writeNumber(v);
    }
  }
}
