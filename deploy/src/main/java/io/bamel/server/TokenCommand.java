package io.bamel.server;

import io.bamel.inventory.api.TokenStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bamel token}: makes a new API token. Prints the token (give it to its user) and the line
 * to add to the tokens file (which holds only the hash).
 */
@Command(
    name = "token",
    mixinStandardHelpOptions = true,
    description = "Makes a new API token and prints it with its tokens-file line.")
public final class TokenCommand implements Callable<Integer> {

  @Option(names = "--name", required = true, description = "who will use it, such as netbox")
  String name;

  @Option(names = "--scope", required = true, description = "read, write or admin")
  String scope;

  @Override
  public Integer call() {
    if (TokenStore.scopeOf(scope) == null) {
      System.err.println("bamel token: --scope must be read, write or admin");
      return 2;
    }
    String token = TokenStore.newToken();
    System.out.println("token: " + token);
    System.out.println("tokens-file line: " + TokenStore.line(name, scope, token));
    return 0;
  }
}
