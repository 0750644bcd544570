package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Each wither changes its one setting and keeps every other. */
class ApiOptionsTest {

  private static final ApiOptions BASE = ApiOptions.DEFAULTS;

  @Test
  void eachWitherChangesOnlyItsComponent() {
    Supplier<List<String>> notes = () -> List.of("etcd nearly full");
    ApiOptions.Sessions sessions = new ApiOptions.Sessions(Duration.ofHours(1), 5, 2);

    assertThat(BASE.withMaxBodyBytes(1024))
        .isEqualTo(copy(1024, BASE.anonymousRead(), BASE.watchHistory()));
    assertThat(BASE.withAnonymousRead(true))
        .isEqualTo(copy(BASE.maxBodyBytes(), true, BASE.watchHistory()));
    assertThat(BASE.withWatchHistory(7))
        .isEqualTo(copy(BASE.maxBodyBytes(), BASE.anonymousRead(), 7));

    ApiOptions withNotes = BASE.withReadinessNotes(notes);
    assertThat(withNotes.readinessNotes()).isSameAs(notes);
    assertThat(withNotes.withReadinessNotes(BASE.readinessNotes())).isEqualTo(BASE);

    ApiOptions withSessions = BASE.sessions(sessions);
    assertThat(withSessions.sessions()).isEqualTo(sessions);
    assertThat(withSessions.sessions(BASE.sessions())).isEqualTo(BASE);

    ApiOptions withCommands = BASE.powerOffCommands(Set.of("ssh-poweroff"));
    assertThat(withCommands.powerOffCommands()).containsExactly("ssh-poweroff");
    assertThat(withCommands.powerOffCommands(Set.of())).isEqualTo(BASE);
  }

  @Test
  void connectionWithersChangeOnlyTheirSetting() {
    ApiOptions.Connections d = ApiOptions.Connections.DEFAULTS;

    assertThat(BASE.maxConnections(3).connections())
        .isEqualTo(
            new ApiOptions.Connections(
                null,
                3,
                d.acceptQueueSize(),
                d.idleTimeout(),
                d.headerTimeout(),
                d.minRequestDataRate(),
                d.tlsReloadInterval()));
    assertThat(BASE.connectionTimeouts(Duration.ofSeconds(4), Duration.ofSeconds(2)).connections())
        .isEqualTo(
            new ApiOptions.Connections(
                null,
                d.maxConnections(),
                d.acceptQueueSize(),
                Duration.ofSeconds(4),
                Duration.ofSeconds(2),
                d.minRequestDataRate(),
                d.tlsReloadInterval()));
    assertThat(BASE.tlsReloadInterval(Duration.ofSeconds(1)).connections().tlsReloadInterval())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(BASE.tlsReloadInterval(Duration.ofSeconds(1)).maxConnections())
        .isEqualTo(d.maxConnections());
    assertThat(BASE.maxConnections(3).withMaxBodyBytes(5).maxConnections()).isEqualTo(3);
  }

  @Test
  void aWitherStillChecksTheValue() {
    assertThatThrownBy(() -> BASE.maxConnections(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxConnections must be at least 1");
  }

  private static ApiOptions copy(long maxBodyBytes, boolean anonymousRead, int watchHistory) {
    return new ApiOptions(
        maxBodyBytes,
        anonymousRead,
        BASE.readYourWrites(),
        BASE.defaultLimit(),
        BASE.maxLimit(),
        watchHistory,
        BASE.clock(),
        BASE.powerOffCommands(),
        BASE.connections(),
        BASE.readinessNotes(),
        BASE.sessions());
  }
}
