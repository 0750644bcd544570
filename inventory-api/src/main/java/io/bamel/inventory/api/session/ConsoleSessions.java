package io.bamel.inventory.api.session;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.security.Principal;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's sessions, in this process's memory (each replica has its own: a session made on one
 * is unknown to another). A session is made from an authenticated {@link Principal} and identified
 * by a random 256-bit cookie value; only that value's SHA-256 is kept, so the map's keys are
 * useless to someone reading memory and a lookup leaks nothing through timing.
 *
 * <p>Bounded: at most {@link ApiOptions.Sessions#maxSessions()} sessions (expired ones are dropped
 * first; beyond that a sign-in is refused with 503) and {@link
 * ApiOptions.Sessions#maxPerPrincipal()} per token name (the token's oldest session ends). Sessions
 * end at their expiry or when signed out. Thread-safe.
 */
public final class ConsoleSessions {

  /** A new session and the cookie value that names it (given to the browser, never stored). */
  record Created(String cookieValue, ConsoleSession session) {}

  private static final SecureRandom RANDOM = new SecureRandom();
  private final ApiOptions.Sessions settings;
  private final Clock clock;
  private final Map<String, ConsoleSession> byKey = new HashMap<>();

  public ConsoleSessions(ApiOptions.Sessions settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Starts a session for {@code principal}.
   *
   * @throws ApiException 503 when {@code maxSessions} unexpired sessions exist
   */
  synchronized Created create(Principal principal) {
    Instant now = clock.instant();
    dropExpired(now);
    List<Map.Entry<String, ConsoleSession>> own = new ArrayList<>();
    for (Map.Entry<String, ConsoleSession> e : byKey.entrySet()) {
      if (e.getValue().principal().name().equals(principal.name())) {
        own.add(e);
      }
    }
    own.sort(Comparator.comparing(e -> e.getValue().created()));
    for (int i = 0; i <= own.size() - settings.maxPerPrincipal(); i++) {
      byKey.remove(own.get(i).getKey());
    }
    if (byKey.size() >= settings.maxSessions()) {
      throw Problems.unavailable(
          "too many console sessions are open on this server; try again later");
    }
    String cookie = random();
    ConsoleSession session =
        new ConsoleSession(principal, random(), now, now.plus(settings.lifetime()));
    byKey.put(key(cookie), session);
    return new Created(cookie, session);
  }

  /** The unexpired session named by {@code cookieValue}, if any (an expired one is dropped). */
  public synchronized Optional<ConsoleSession> find(String cookieValue) {
    if (cookieValue == null || cookieValue.isEmpty() || cookieValue.length() > 128) {
      return Optional.empty();
    }
    String key = key(cookieValue);
    ConsoleSession s = byKey.get(key);
    if (s == null) {
      return Optional.empty();
    }
    if (!s.validAt(clock.instant())) {
      byKey.remove(key);
      return Optional.empty();
    }
    return Optional.of(s);
  }

  /** Ends the session named by {@code cookieValue}; whether there was one. */
  synchronized boolean end(String cookieValue) {
    return cookieValue != null && byKey.remove(key(cookieValue)) != null;
  }

  /** Whether {@code session} is still held: not expired and not signed out. */
  public synchronized boolean holds(ConsoleSession session) {
    return session.validAt(clock.instant()) && byKey.containsValue(session);
  }

  /** How many sessions are held (expired ones not yet dropped included). */
  synchronized int size() {
    return byKey.size();
  }

  /** The time now, by this store's clock. */
  Instant now() {
    return clock.instant();
  }

  private void dropExpired(Instant now) {
    byKey.values().removeIf(s -> !s.validAt(now));
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String key(String cookieValue) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(cookieValue.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
