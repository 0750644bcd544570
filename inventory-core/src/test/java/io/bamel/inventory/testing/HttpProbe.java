package io.bamel.inventory.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The status a server answers a {@code GET} with, for tests and benchmarks that wait for bamel's
 * {@code /readyz} (or any page) to say something while etcd members come and go.
 */
public final class HttpProbe {

  /** The status when nothing answered (refused, reset or timed out). */
  public static final int NO_ANSWER = -1;

  private HttpProbe() {}

  /**
   * The status of {@code GET url} through {@code http}, or {@link #NO_ANSWER} when none came within
   * 5 s (an interrupt is kept and answers the same).
   */
  public static int status(HttpClient http, String url) {
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return NO_ANSWER;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return NO_ANSWER;
    }
  }
}
