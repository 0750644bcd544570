package io.bamel.server;

import picocli.CommandLine;

/** Test access to {@link Main}'s whole command line from other packages. */
public final class MainAccess {

  private MainAccess() {}

  /** {@link Main#commandLine()}. */
  public static CommandLine commandLine() {
    return Main.commandLine();
  }
}
