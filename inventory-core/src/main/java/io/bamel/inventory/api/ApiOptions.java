package io.bamel.inventory.api;

import java.time.Clock;
import java.time.Duration;

/**
 * Settings of the API.
 *
 * @param maxBodyBytes the largest request body accepted (413 above); default 8 MiB
 * @param anonymousRead whether requests without a token may read
 * @param readYourWrites how long a write waits for the cache to show it before answering
 * @param defaultLimit the page size of a listing without {@code limit}
 * @param maxLimit the largest {@code limit} accepted
 * @param watchHistory how many changes the watch keeps for resuming clients
 * @param clock the clock for event times
 */
public record ApiOptions(
    long maxBodyBytes,
    boolean anonymousRead,
    Duration readYourWrites,
    int defaultLimit,
    int maxLimit,
    int watchHistory,
    Clock clock) {

  /** 8 MiB bodies, no anonymous read, 5 s read-your-writes, pages of 500 up to 10,000. */
  public static final ApiOptions DEFAULTS =
      new ApiOptions(
          8L * 1024 * 1024, false, Duration.ofSeconds(5), 500, 10_000, 10_000, Clock.systemUTC());

  /** These options with another body limit. */
  public ApiOptions withMaxBodyBytes(long bytes) {
    return new ApiOptions(
        bytes, anonymousRead, readYourWrites, defaultLimit, maxLimit, watchHistory, clock);
  }

  /** These options with anonymous read on or off. */
  public ApiOptions withAnonymousRead(boolean on) {
    return new ApiOptions(
        maxBodyBytes, on, readYourWrites, defaultLimit, maxLimit, watchHistory, clock);
  }

  /** These options with another watch history size. */
  public ApiOptions withWatchHistory(int changes) {
    return new ApiOptions(
        maxBodyBytes, anonymousRead, readYourWrites, defaultLimit, maxLimit, changes, clock);
  }
}
