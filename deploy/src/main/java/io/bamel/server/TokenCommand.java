package io.bamel.server;

import io.bamel.inventory.api.security.TokenStore;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bamel token}: makes a new API token. Prints the token (give it to its user) and the line
 * to add to the tokens file (which holds only the hash). The name must be {@link #NAME} (lower-case
 * letters, digits, {@code .}, {@code _}, {@code -}; so it can never break or add a tokens-file
 * line) and the scope one of {@link #SCOPES}; otherwise it prints one line on standard error,
 * nothing on standard output, and exits with code 2.
 */
@Command(
    name = "token",
    mixinStandardHelpOptions = true,
    description = "Makes a new API token and prints it with its tokens-file line.")
public final class TokenCommand implements Callable<Integer> {

  /** What a token's name may be: what its user is, such as {@code netbox-sync}. */
  static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

  /** The scopes, each including the ones before it. */
  static final List<String> SCOPES = List.of("read", "write", "bmc", "admin");

  @Option(
      names = "--name",
      required = true,
      description = "who will use it, such as netbox-sync ([a-z0-9][a-z0-9._-]{0,62})")
  String name;

  @Option(names = "--scope", required = true, description = "read, write, bmc or admin")
  String scope;

  private final PrintStream out;
  private final PrintStream err;

  /** A command printing to standard output and standard error. */
  public TokenCommand() {
    this(System.out, System.err);
  }

  TokenCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() {
    if (!NAME.matcher(name).matches()) {
      err.println(
          "bamel token: --name must be 1 to 63 of a-z, 0-9, '.', '_' and '-', starting with a"
              + " letter or digit");
      return 2;
    }
    if (!SCOPES.contains(scope)) {
      err.println("bamel token: --scope must be read, write, bmc or admin");
      return 2;
    }
    String token = TokenStore.newToken();
    out.println("token: " + token);
    out.println("tokens-file line: " + TokenStore.line(name, scope, token));
    return 0;
  }
}
