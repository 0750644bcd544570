package io.bamel.bench;

import io.bamel.power.tls.X25519Provider;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the benchmarks of {@link BenchSuite} and prints one table. {@code -Dbench.only=a,b} runs a
 * subset by name. Exits 0 whether or not targets were met: targets are reported, not asserted. Each
 * benchmark's rows are also printed as soon as it ends, so a run stopped half-way (a full run takes
 * an hour and more) keeps what it measured.
 */
public final class BenchMain {

  private BenchMain() {}

  /** Entry point of {@code make bench}. */
  public static void main(String[] args) {
    // as bamel server does: the TLS handshakes of the benchmarks cost what they cost in the server
    X25519Provider.install();
    BenchContext context = new BenchContext();
    Set<String> only =
        Stream.of(System.getProperty("bench.only", "").split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toSet());
    List<BenchResult> rows = new ArrayList<>();
    for (Benchmark benchmark : BenchSuite.all()) {
      if (!only.isEmpty() && !only.contains(benchmark.name())) {
        continue;
      }
      System.out.printf("running %s ...%n", benchmark.name());
      List<BenchResult> done;
      try {
        done = benchmark.run(context);
      } catch (Exception e) {
        System.out.printf("%s failed: %s%n", benchmark.name(), e);
        done = List.of(new BenchResult(benchmark.name(), "failed: " + e, 0, 0, "", 0, "-", false));
      }
      print(done, System.out);
      rows.addAll(done);
    }
    print(rows, System.out);
    System.exit(0);
  }

  /** Prints the rows as a Markdown table (pasteable into docs/benchmarks.md). */
  static void print(List<BenchResult> rows, PrintStream out) {
    out.println();
    out.println("| benchmark | measure | bamel | baseline | unit | ratio | target | met |");
    out.println("|---|---|---:|---:|---|---:|---|---|");
    for (BenchResult r : rows) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %.2f | %s | %s |%n",
          r.benchmark(),
          r.measure(),
          BenchContext.format(r.bamel()),
          BenchContext.format(r.baseline()),
          r.unit(),
          r.ratio(),
          r.target(),
          r.met() ? "yes" : "NO");
    }
  }
}
