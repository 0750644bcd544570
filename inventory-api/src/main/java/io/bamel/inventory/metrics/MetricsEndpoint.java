package io.bamel.inventory.metrics;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Renders a registry for {@code /metrics} in the format the scraper asks for in its {@code Accept}
 * header: OpenMetrics text when asked for, else the Prometheus text format.
 */
public final class MetricsEndpoint {

  /** One rendered scrape: content type and bytes. */
  public record Scrape(String contentType, byte[] body) {}

  private final PrometheusRegistry registry;
  private final ExpositionFormats formats = ExpositionFormats.init();

  /** An endpoint over {@code registry}. */
  public MetricsEndpoint(PrometheusRegistry registry) {
    this.registry = registry;
  }

  /** Scrapes the registry in the format {@code accept} asks for. */
  public Scrape scrape(String accept) {
    ExpositionFormatWriter writer = formats.findWriter(accept);
    if (!writer.isAvailable() || writer.getContentType().contains("protobuf")) {
      writer = formats.getPrometheusTextFormatWriter();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Scrape(writer.getContentType(), out.toByteArray());
  }
}
