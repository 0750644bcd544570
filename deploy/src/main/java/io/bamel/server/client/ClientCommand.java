package io.bamel.server.client;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The frame of a client command: resolves the configuration ({@link ClientConfigs}), runs {@link
 * #run(ApiClient)}, and turns a {@link ClientException} into {@code error: <message>} on standard
 * error with exit code 1, as kubectl does. Exit code 0 is success, 2 a usage error.
 */
public abstract class ClientCommand implements Callable<Integer> {

  /** Exit code of a failed command. */
  public static final int FAILED = 1;

  @Spec protected CommandSpec spec;

  @Mixin protected ClientOptions client;

  @Override
  public final Integer call() {
    try {
      ClientConfig config = ClientConfigs.load(environment(), client.flags(null));
      return run(new ApiClient(config));
    } catch (ClientException e) {
      PrintWriter err = spec.commandLine().getErr();
      out().flush();
      err.println("error: " + e.getMessage());
      err.flush();
      return FAILED;
    }
  }

  /** Does the command's work; returns its exit code. */
  protected abstract int run(ApiClient api);

  /** Standard output. */
  protected PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** The environment, from the root command ({@link ClientEnvironment#system()} without one). */
  protected ClientEnvironment environment() {
    Object root = spec.root().userObject();
    return root instanceof ClientEnvironment.Holder h
        ? h.clientEnvironment()
        : ClientEnvironment.system();
  }

  /** Now, by the environment's clock. */
  protected Instant now() {
    return environment().clock().instant();
  }

  /** A node id as a path segment (ids are DNS labels; anything else is encoded). */
  protected static String segment(String id) {
    return java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8)
        .replace("+", "%20");
  }
}
