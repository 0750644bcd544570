package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.pool.simulate.PodTrace;
import io.bamel.pool.simulate.TraceCsv;
import io.bamel.pool.simulate.WorkloadGenerator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

/** {@code bamel simulate}: its table, JSON, report files and refusals. */
class SimulateCommandTest {

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine root = io.bamel.server.MainAccess.commandLine();
    root.setOut(new PrintWriter(out, true));
    root.setErr(new PrintWriter(err, true));
    String[] full = new String[args.length + 1];
    full[0] = "simulate";
    System.arraycopy(args, 0, full, 1, args.length);
    return root.execute(full);
  }

  @Test
  void jsonHasTheFixedFieldsPerPolicyAndTheReportIsWellFormedSvgAndHtml() throws Exception {
    Path report = dir.resolve("out");
    assertThat(
            run(
                "--generate",
                "4h",
                "--seed",
                "3",
                "--output",
                "json",
                "--report",
                report.toString()))
        .isZero();
    JsonNode doc = new ObjectMapper().readTree(out.toString());
    assertThat(doc.path("policies")).hasSize(6);
    List<String> names = new java.util.ArrayList<>();
    for (JsonNode p : doc.path("policies")) {
      names.add(p.path("policy").asText());
      for (String field :
          List.of(
              "energyKWh",
              "energyVsOracle",
              "waitP50Seconds",
              "waitP99Seconds",
              "waitMaxSeconds",
              "powerOnsPerServerDay",
              "unplaceablePods")) {
        assertThat(p.has(field)).as(field).isTrue();
        assertThat(p.path(field).isNumber()).as(field).isTrue();
      }
    }
    assertThat(names)
        .containsExactly(
            "oracle", "bamel", "always-on", "cluster-autoscaler", "karpenter", "kproximate");
    assertThat(err.toString()).contains("no --pools: a default fleet sized to the trace's peak");

    // The JDK's XML parser is the oracle of well-formedness: one chart (four lines) per policy.
    Document svg =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(report.resolve("report.svg").toFile());
    assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
    assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(6 * 4);
    String html = Files.readString(report.resolve("report.html"));
    assertThat(html).contains("<img src=\"report.svg\"").contains("<td>kproximate</td>");
  }

  @Test
  void frontierAddsEachFamilysSweepAndItsLeastEnergyPerBoundToTheJson() throws Exception {
    assertThat(run("--generate", "2h", "--frontier", "--output", "json")).isZero();
    JsonNode frontier = new ObjectMapper().readTree(out.toString()).path("frontier");
    List<String> families = new java.util.ArrayList<>();
    frontier.path("families").fieldNames().forEachRemaining(families::add);
    assertThat(families).containsExactly("bamel", "cluster-autoscaler", "karpenter", "kproximate");
    for (String family : families) {
      JsonNode f = frontier.path("families").path(family);
      assertThat(f.path("results").get(0).path("policy").asText()).isEqualTo(family);
      assertThat(f.path("frontier").size()).isPositive();
      assertThat(f.path("dominatedBy").isArray()).isTrue();
    }
    JsonNode bounds = frontier.path("bounds");
    assertThat(bounds.get(0).path("bound").asText()).isEqualTo("0 s");
    assertThat(bounds.get(0).path("leastEnergy").has("bamel")).isTrue();
  }

  @Test
  void aTraceFileAndAPoolsFileAreReplayedAsTheTable() throws Exception {
    PodTrace trace = WorkloadGenerator.alibabaGpuV2023().generate(Duration.ofHours(3), 5);
    Path csv = dir.resolve("pods.csv");
    try (Writer w = Files.newBufferedWriter(csv)) {
      TraceCsv.write(trace, w);
    }
    Path pools =
        Files.writeString(
            dir.resolve("pools.yaml"),
            """
            pools:
              - name: batch
                servers: 20
                cores: 128
                memoryGiB: 1024
                bootSeconds: {min: 60, max: 120}
                config:
                  scaleDownThreshold: 0.4
                  scaleDownUnneededTime: 5m
            """);
    assertThat(run("--trace", csv.toString(), "--format", "bamel", "--pools", pools.toString()))
        .isZero();
    assertThat(out.toString()).startsWith("POLICY").contains("bamel").contains("kproximate");
    assertThat(err.toString()).doesNotContain("default fleet");
  }

  @Test
  void badInputIsRefusedWithAReason() throws Exception {
    assertThat(run()).isEqualTo(2);
    assertThat(err.toString()).contains("give one of --generate or --trace");
    assertThat(run("--generate", "7x")).isEqualTo(2);
    assertThat(err.toString()).contains("days or hours");
    Path csv =
        Files.writeString(dir.resolve("p.csv"), "name,created,deleted,cpu_milli,memory_mib\n");
    assertThat(run("--trace", csv.toString(), "--format", "alibaba")).isEqualTo(2);
    assertThat(err.toString()).contains("not the alibaba layout");
    Path pools =
        Files.writeString(
            dir.resolve("bad.yaml"),
            "pools:\n  - name: a\n    servers: 2\n    cores: 8\n    memGiB: 4\n");
    assertThat(run("--generate", "2h", "--pools", pools.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("pools[0]: unknown field memGiB");
  }
}
