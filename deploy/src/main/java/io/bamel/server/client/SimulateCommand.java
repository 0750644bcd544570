package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.store.Codec;
import io.bamel.pool.simulate.Autoscaler;
import io.bamel.pool.simulate.BootTime;
import io.bamel.pool.simulate.Comparison;
import io.bamel.pool.simulate.Fleet;
import io.bamel.pool.simulate.FleetPool;
import io.bamel.pool.simulate.Frontier;
import io.bamel.pool.simulate.FrontierSweep;
import io.bamel.pool.simulate.PodTrace;
import io.bamel.pool.simulate.ReportSvg;
import io.bamel.pool.simulate.Simulator;
import io.bamel.pool.simulate.TraceCsv;
import io.bamel.pool.simulate.TraceFormatException;
import io.bamel.pool.simulate.Workload;
import io.bamel.pool.simulate.WorkloadGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bamel simulate}: replays a pod workload (generated, or a trace file) on a fleet of servers
 * under bamel's pool controller decisions, the oracle and the rival autoscalers, and prints the
 * table of energy, extra wait and power-ons (docs/pool-controller.md, "Simulation"). Needs no
 * server: it runs in this process on a fake clock.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replays a workload against bamel's decisions and rival autoscalers; prints energy, extra"
          + " wait and power-ons per policy.",
      "  bamel simulate --generate 7d",
      "  bamel simulate --trace pods.csv --pools pools.yaml --report out/"
    })
public final class SimulateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--generate",
      paramLabel = "LENGTH",
      description =
          "Generate a workload of this length (7d, 34d, 12h) calibrated to Alibaba's trace")
  String generate;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the workload and boot times")
  long seed = 1;

  @Option(names = "--trace", paramLabel = "FILE", description = "A pod trace CSV to replay")
  Path trace;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "The trace's layout: bamel or alibaba (default: told by the header)")
  String format;

  @Option(
      names = "--pools",
      paramLabel = "FILE",
      description = "The fleet, YAML (default: sized to the trace's peak)")
  Path pools;

  @Option(
      names = "--variants",
      description =
          "Also run bamel with each decision feature changed alone (trend, hold-off, thresholds)")
  boolean variants;

  @Option(
      names = "--frontier",
      description =
          "Also sweep each policy family over its documented knobs (bamel's thresholds,"
              + " cluster-autoscaler's flags and over-provisioning, Karpenter's consolidateAfter,"
              + " kproximate's headroom and poll) and compare the least energy each reaches at"
              + " equal p99 wait (about 30 more runs)")
  boolean frontier;

  @Option(names = "--output", paramLabel = "FORMAT", description = "table (default) or json")
  String output = "table";

  @Option(names = "--report", paramLabel = "DIR", description = "Write report.svg and report.html")
  Path report;

  private List<Supplier<Autoscaler>> policies() {
    List<Supplier<Autoscaler>> all = new ArrayList<>(Comparison.defaultPolicies());
    if (variants) {
      all.addAll(Comparison.bamelVariants());
    }
    return all;
  }

  @Override
  public Integer call() throws IOException {
    CommandLine cl = spec.commandLine();
    if ((generate == null) == (trace == null)) {
      throw new CommandLine.ParameterException(cl, "give one of --generate or --trace");
    }
    if (!output.equals("table") && !output.equals("json")) {
      throw new CommandLine.ParameterException(cl, "--output must be table or json, not " + output);
    }
    if (format != null && !format.equals("bamel") && !format.equals("alibaba")) {
      throw new CommandLine.ParameterException(cl, "--format must be bamel or alibaba");
    }
    if (format != null && trace == null) {
      throw new CommandLine.ParameterException(cl, "--format goes with --trace");
    }
    PodTrace pods = generate != null ? generated(cl) : read(cl);
    Fleet fleet;
    PrintWriter err = cl.getErr();
    if (pools != null) {
      fleet = readPools(cl, pools);
    } else {
      fleet = Fleet.sizedFor(pods);
      err.println("no --pools: a default fleet sized to the trace's peak: " + describe(fleet));
      err.flush();
    }
    Workload workload = Workload.of(pods, fleet);
    Comparison result =
        Comparison.run(fleet, workload, Simulator.Settings.DEFAULTS.withSeed(seed), policies());
    Frontier sweep = frontier ? FrontierSweep.run(result, FrontierSweep.families(fleet)) : null;
    PrintWriter out = cl.getOut();
    if (output.equals("json")) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("pods", workload.pods().size());
      doc.put("unplaceablePods", workload.unplaceable().size());
      doc.put("neverScheduledPods", workload.neverScheduled());
      doc.put("policies", result.results());
      if (sweep != null) {
        doc.put("frontier", sweep.json());
      }
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
    } else {
      out.print(result.table());
      if (sweep != null) {
        out.println();
        out.print(sweep.table());
      }
    }
    out.flush();
    if (report != null) {
      Files.createDirectories(report);
      String title =
          "bamel simulate: "
              + (generate != null
                  ? "generated " + generate + ", seed " + seed
                  : trace.getFileName());
      Files.writeString(report.resolve("report.svg"), ReportSvg.svg(result));
      Files.writeString(report.resolve("report.html"), ReportSvg.html(result, title));
      err.println(
          "wrote " + report.resolve("report.html") + " and " + report.resolve("report.svg"));
      err.flush();
    }
    return 0;
  }

  private PodTrace generated(CommandLine cl) {
    Duration length = length(cl, generate);
    return WorkloadGenerator.alibabaGpuV2023().generate(length, seed);
  }

  /** {@code 7d}, {@code 34d}, {@code 12h}: a positive whole number of days or hours. */
  static Duration length(CommandLine cl, String text) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("([1-9][0-9]{0,3})([dh])").matcher(text);
    if (!m.matches()) {
      throw new CommandLine.ParameterException(
          cl, "--generate takes a length in days or hours (7d, 34d, 12h), not " + text);
    }
    long n = Long.parseLong(m.group(1));
    return m.group(2).equals("d") ? Duration.ofDays(n) : Duration.ofHours(n);
  }

  private PodTrace read(CommandLine cl) throws IOException {
    String text = Files.readString(trace, StandardCharsets.UTF_8);
    if (format != null) {
      String header = text.lines().findFirst().orElse("");
      boolean alibaba = header.contains("creation_time");
      if (alibaba != format.equals("alibaba")) {
        throw new CommandLine.ParameterException(
            cl, trace + ": the header is not the " + format + " layout: " + header);
      }
    }
    try (Reader in = new java.io.StringReader(text)) {
      return TraceCsv.read(in);
    } catch (TraceFormatException e) {
      throw new CommandLine.ParameterException(cl, trace + ": " + e.getMessage());
    }
  }

  /**
   * The fleet of a pools file: {@code pools:}, a list of {@code name}, {@code servers}, {@code
   * cores}, {@code memoryGiB}, optional {@code gpus}, {@code idleWatts}, {@code fullWatts}, {@code
   * bootSeconds: {min, max}} and {@code config} (a pool config as the API takes it).
   */
  static Fleet readPools(CommandLine cl, Path file) throws IOException {
    JsonNode root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
    } catch (IOException e) {
      throw new CommandLine.ParameterException(cl, file + ": not YAML: " + e.getMessage());
    }
    if (root == null || !root.path("pools").isArray() || root.path("pools").isEmpty()) {
      throw new CommandLine.ParameterException(cl, file + ": needs a non-empty list 'pools'");
    }
    List<FleetPool> out = new ArrayList<>();
    int i = 0;
    for (JsonNode p : root.path("pools")) {
      String where = file + ": pools[" + i++ + "]";
      java.util.Set<String> known =
          java.util.Set.of(
              "name",
              "servers",
              "cores",
              "memoryGiB",
              "gpus",
              "idleWatts",
              "fullWatts",
              "bootSeconds",
              "config");
      p.fieldNames()
          .forEachRemaining(
              f -> {
                if (!known.contains(f)) {
                  throw new CommandLine.ParameterException(cl, where + ": unknown field " + f);
                }
              });
      try {
        String name = required(cl, where, p, "name").asText();
        int servers = required(cl, where, p, "servers").asInt();
        double cores = required(cl, where, p, "cores").asDouble();
        double memory = required(cl, where, p, "memoryGiB").asDouble();
        int gpus = p.path("gpus").asInt(0);
        double idle = p.path("idleWatts").asDouble(FleetPool.defaultIdleWatts(cores, memory, gpus));
        double full = p.path("fullWatts").asDouble(FleetPool.defaultFullWatts(idle, cores, gpus));
        JsonNode boot = p.path("bootSeconds");
        BootTime bootTime =
            boot.isMissingNode()
                ? BootTime.DEFAULT
                : new BootTime(boot.path("min").asLong(-1), boot.path("max").asLong(-1));
        PoolConfig config =
            p.has("config")
                ? Codec.mapper().treeToValue(p.get("config"), PoolConfig.class).validate()
                : PoolConfig.builder().build();
        out.add(new FleetPool(name, servers, cores, memory, gpus, idle, full, bootTime, config));
      } catch (IllegalArgumentException | IOException e) {
        throw new CommandLine.ParameterException(cl, where + ": " + e.getMessage());
      }
    }
    try {
      return new Fleet(out);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, file + ": " + e.getMessage());
    }
  }

  private static JsonNode required(CommandLine cl, String where, JsonNode p, String field) {
    JsonNode v = p.get(field);
    if (v == null || v.isNull()) {
      throw new CommandLine.ParameterException(cl, where + ": needs " + field);
    }
    return v;
  }

  static String describe(Fleet fleet) {
    List<String> parts = new ArrayList<>();
    for (FleetPool p : fleet.pools()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "pool %s, %d servers of %.0f cores, %.0f GiB, %d GPUs",
              p.name(),
              p.servers(),
              p.cores(),
              p.memoryGiB(),
              p.gpus()));
    }
    return String.join("; ", parts);
  }
}
