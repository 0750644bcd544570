package io.bamel.inventory.api.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

class ConsoleSessionsTest {

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
  private static final Principal READER = new Principal("reader", Access.READ);
  private static final Principal OPS = new Principal("ops", Access.ADMIN);

  @Test
  void aSessionCarriesTheTokensScopeUntilItExpires() {
    MutableClock clock = MutableClock.of(START, ZoneOffset.UTC);
    ConsoleSessions s =
        new ConsoleSessions(new ApiOptions.Sessions(Duration.ofHours(1), 10, 5), clock);
    ConsoleSessions.Created c = s.create(READER);
    assertThat(c.cookieValue()).hasSize(43).doesNotContain(c.session().csrfToken());
    assertThat(c.session().principal()).isEqualTo(READER);
    assertThat(c.session().expiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
    assertThat(s.find(c.cookieValue())).contains(c.session());
    assertThat(s.holds(c.session())).isTrue();
    clock.add(Duration.ofMinutes(59));
    assertThat(s.find(c.cookieValue())).isPresent();
    clock.add(Duration.ofMinutes(1));
    assertThat(s.holds(c.session())).isFalse();
    assertThat(s.find(c.cookieValue())).isEmpty();
    assertThat(s.size()).isZero();
  }

  @Test
  void signingOutEndsOnlyThatSession() {
    ConsoleSessions s =
        new ConsoleSessions(ApiOptions.Sessions.DEFAULTS, MutableClock.of(START, ZoneOffset.UTC));
    ConsoleSessions.Created a = s.create(READER);
    ConsoleSessions.Created b = s.create(READER);
    assertThat(a.cookieValue()).isNotEqualTo(b.cookieValue());
    assertThat(a.session().csrfToken()).isNotEqualTo(b.session().csrfToken());
    assertThat(s.end(a.cookieValue())).isTrue();
    assertThat(s.end(a.cookieValue())).isFalse();
    assertThat(s.find(a.cookieValue())).isEmpty();
    assertThat(s.holds(a.session())).isFalse();
    assertThat(s.find(b.cookieValue())).isPresent();
  }

  @Test
  void unknownAndOddCookiesFindNothing() {
    ConsoleSessions s =
        new ConsoleSessions(ApiOptions.Sessions.DEFAULTS, MutableClock.of(START, ZoneOffset.UTC));
    s.create(READER);
    assertThat(s.find(null)).isEmpty();
    assertThat(s.find("")).isEmpty();
    assertThat(s.find("x".repeat(10_000))).isEmpty();
    assertThat(s.find("not-a-session")).isEmpty();
  }

  @Test
  void aTokensOldestSessionEndsBeyondItsShare() {
    MutableClock clock = MutableClock.of(START, ZoneOffset.UTC);
    ConsoleSessions s =
        new ConsoleSessions(new ApiOptions.Sessions(Duration.ofHours(1), 100, 3), clock);
    List<ConsoleSessions.Created> mine = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      clock.add(Duration.ofSeconds(1));
      mine.add(s.create(READER));
    }
    ConsoleSessions.Created other = s.create(OPS);
    assertThat(s.find(mine.get(0).cookieValue())).isEmpty();
    for (int i = 1; i < 4; i++) {
      assertThat(s.find(mine.get(i).cookieValue())).isPresent();
    }
    assertThat(s.find(other.cookieValue())).isPresent();
    assertThat(s.size()).isEqualTo(4);
  }

  @Test
  void theStoreIsBoundedAndExpiredSessionsMakeRoom() {
    MutableClock clock = MutableClock.of(START, ZoneOffset.UTC);
    ConsoleSessions s =
        new ConsoleSessions(new ApiOptions.Sessions(Duration.ofMinutes(10), 3, 3), clock);
    s.create(READER);
    s.create(OPS);
    s.create(new Principal("dcim", Access.WRITE));
    assertThatThrownBy(() -> s.create(new Principal("netops", Access.BMC)))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).problem().status()).isEqualTo(503));
    clock.add(Duration.ofMinutes(10));
    assertThat(s.create(new Principal("netops", Access.BMC)).session().principal().name())
        .isEqualTo("netops");
    assertThat(s.size()).isEqualTo(1);
  }
}
