package io.bamel.server.client;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * What a client command reads from outside its arguments: the process environment, the home
 * directory (for {@code ~/.config/bamel/config.yaml}) and the clock (for ages). {@link #system()}
 * is the real one; tests pass their own.
 *
 * @param env environment variables ({@code BAMEL_SERVER}, {@code BAMEL_TOKEN}, ...)
 * @param home the user's home directory
 * @param clock the clock ages are computed against
 */
public record ClientEnvironment(Map<String, String> env, Path home, Clock clock) {

  /** The process's environment, {@code user.home} and the system clock. */
  public static ClientEnvironment system() {
    return new ClientEnvironment(
        System.getenv(), Path.of(System.getProperty("user.home", ".")), Clock.systemUTC());
  }

  /** Implemented by the root command, which carries the environment for its subcommands. */
  public interface Holder {
    /** The environment the client commands run in. */
    ClientEnvironment clientEnvironment();
  }
}
