package io.bamel.server;

import io.bamel.power.cli.BmcCommand;
import io.bamel.server.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bamel}: the command line. Subcommands: {@code server} (the service), {@code demo} (a
 * simulated fleet on an embedded etcd), {@code bmc} (check a BMC), {@code token} (make an API
 * token).
 */
@Command(
    name = "bamel",
    mixinStandardHelpOptions = true,
    version = "bamel 0.1.0",
    description = "Bare-metal inventory service backed by etcd.",
    subcommands = {
      ServerCommand.class,
      DemoCommand.class,
      BmcCommand.class,
      TokenCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  /** Entry point of {@code bin/bamel}. */
  public static void main(String[] args) {
    int code = new CommandLine(new Main()).execute(args);
    System.exit(code);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
