package io.bamel.inventory.metrics;

import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What runs: {@code bamel_build_info{version,revision,java_version}} (always 1; {@code revision} is
 * the source revision given to the build as {@code -Dbamel.revision}, {@code unknown} without), and
 * the JVM's and the process's metrics of client_java's instrumentation module ({@code jvm_*}:
 * memory, garbage collection, threads, classes, buffer pools, runtime; {@code process_*}: CPU
 * seconds, start time, open and maximum file descriptors, resident and virtual memory).
 */
public final class BuildInfo {

  private BuildInfo() {}

  /** This build's version and revision, from the resource written at build time. */
  public static Properties build() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String key : new String[] {"version", "revision"}) {
      String value = p.getProperty(key, "");
      if (value.isBlank() || value.startsWith("${")) {
        p.setProperty(key, "unknown");
      }
    }
    return p;
  }

  /**
   * Registers {@code bamel_build_info} and the JVM and process metrics in {@code registry}; a
   * registry that has them already is left as it is.
   */
  public static void register(PrometheusRegistry registry) {
    Properties build = build();
    Info info =
        Info.builder()
            .name("bamel_build_info")
            .help("The running bamel's version and source revision, and the Java version; 1.")
            .labelNames("version", "revision", "java_version")
            .build();
    try {
      registry.register(info);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return; // registered by another server on the same registry (tests)
    }
    info.setLabelValues(
        build.getProperty("version"),
        build.getProperty("revision"),
        System.getProperty("java.runtime.version", System.getProperty("java.version")));
    JvmMetrics.builder().register(registry); // idempotent per registry
  }
}
