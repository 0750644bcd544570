package io.bamel.server;

import io.bamel.power.cli.BmcCommand;
import io.bamel.server.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bamel}: the command line. Subcommands: {@code server} (the service), {@code demo} (a
 * simulated fleet on an embedded etcd), {@code bmc} (check a BMC), {@code token} (make an API
 * token), {@code etcd} (etcd's space and alarms, defragmentation), {@code sync netbox} (pull NetBox
 * once, or print the plan).
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
      EtcdCommand.class,
      SyncCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  /**
   * Entry point of {@code bin/bamel}. Logging starts as warnings on standard error (what {@code
   * bmc} and {@code token} keep, so their standard output is only their result); {@code server} and
   * {@code demo} configure their own. A usage error is two lines on standard error and exit code 2.
   */
  public static void main(String[] args) {
    Logging.configureCommandLine();
    System.exit(commandLine().execute(args));
  }

  /** The command line with its subcommands and the two-line usage error handler. */
  static CommandLine commandLine() {
    CommandLine command = new CommandLine(new Main());
    command.setParameterExceptionHandler(
        (e, ignored) -> {
          CommandLine failed = e.getCommandLine();
          String name = failed.getCommandSpec().qualifiedName();
          failed.getErr().println(name + ": " + e.getMessage());
          failed.getErr().println("Try '" + name + " --help'.");
          return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
    return command;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
