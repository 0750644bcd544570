package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BmcPacerTest {

  private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void waitsOnlyForTheRestOfTheInterval() {
    Duration min = Duration.ofMillis(500);
    assertThat(BmcPacer.waitBefore(Instant.MIN, t0, min)).isZero();
    assertThat(BmcPacer.waitBefore(t0, t0.plusMillis(200), min)).isEqualTo(Duration.ofMillis(300));
    assertThat(BmcPacer.waitBefore(t0, t0.plusMillis(900), min)).isZero();
  }

  @Test
  void spacesConsecutiveCommandsToOneBmcButNotToOthers() throws Exception {
    Clock clock = Clock.fixed(t0, ZoneOffset.UTC);
    List<Duration> sleeps = new ArrayList<>();
    BmcPacer pacer = new BmcPacer(Duration.ofMillis(500), clock, sleeps::add);

    pacer.acquire("a:623", Duration.ofSeconds(1)).orElseThrow().close();
    pacer.acquire("a:623", Duration.ofSeconds(1)).orElseThrow().close();
    pacer.acquire("b:623", Duration.ofSeconds(1)).orElseThrow().close();

    assertThat(sleeps).containsExactly(Duration.ZERO, Duration.ofMillis(500), Duration.ZERO);
  }

  @Test
  void oneCommandAtATimePerBmc() throws Exception {
    BmcPacer pacer = new BmcPacer(Duration.ZERO, Clock.systemUTC(), d -> {});
    BmcPacer.Turn held = pacer.acquire("a:623", Duration.ofSeconds(1)).orElseThrow();
    Thread other =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    assertThat(pacer.acquire("a:623", Duration.ofMillis(100))).isEmpty();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    other.join();
    held.close();
    assertThat(pacer.acquire("a:623", Duration.ofMillis(100))).isPresent();
  }

  @Test
  void allowsMaxConcurrentTurnsPerBmcAndTheNextWaitsForOneToEnd() throws Exception {
    BmcPacer pacer = new BmcPacer(2, Duration.ZERO, Clock.systemUTC(), d -> {});
    BmcPacer.Turn first = pacer.acquire("bmc-a", Duration.ofSeconds(1)).orElseThrow();
    BmcPacer.Turn second = pacer.acquire("bmc-a", Duration.ofSeconds(1)).orElseThrow();
    assertThat(pacer.acquire("bmc-a", Duration.ofMillis(50))).as("a third at once").isEmpty();
    assertThat(pacer.acquire("bmc-b", Duration.ofMillis(50))).as("another BMC").isPresent();

    first.close();
    first.close(); // closing twice frees one turn only
    BmcPacer.Turn third = pacer.acquire("bmc-a", Duration.ofMillis(50)).orElseThrow();
    assertThat(pacer.acquire("bmc-a", Duration.ofMillis(50))).isEmpty();
    second.close();
    third.close();
  }

  @Test
  void concurrentTurnsAreSpacedFromTheLastStart() throws Exception {
    Clock clock = Clock.fixed(t0, ZoneOffset.UTC);
    List<Duration> sleeps = new ArrayList<>();
    BmcPacer pacer = new BmcPacer(4, Duration.ofMillis(100), clock, sleeps::add);

    pacer.acquire("a", Duration.ofSeconds(1)).orElseThrow();
    pacer.acquire("a", Duration.ofSeconds(1)).orElseThrow();
    pacer.acquire("a", Duration.ofSeconds(1)).orElseThrow();

    // the clock stands still: each start is reserved 100 ms after the one before
    assertThat(sleeps)
        .containsExactly(Duration.ZERO, Duration.ofMillis(100), Duration.ofMillis(200));
  }

  @Test
  void aSpacingLongerThanTheWaitAllowedGivesNoTurn() throws Exception {
    Clock clock = Clock.fixed(t0, ZoneOffset.UTC);
    BmcPacer pacer = new BmcPacer(4, Duration.ofSeconds(1), clock, d -> {});
    pacer.acquire("a", Duration.ofSeconds(1)).orElseThrow();
    assertThat(pacer.acquire("a", Duration.ofMillis(500))).isEmpty();
    assertThat(pacer.acquire("a", Duration.ofSeconds(2))).isPresent();
  }
}
