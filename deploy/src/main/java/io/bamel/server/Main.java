package io.bamel.server;

import io.bamel.power.cli.BmcCommand;
import io.bamel.server.client.ClientEnvironment;
import io.bamel.server.client.CompletionCommand;
import io.bamel.server.client.DescribeCommand;
import io.bamel.server.client.GetCommand;
import io.bamel.server.client.InspectCommand;
import io.bamel.server.client.InventoryBmc;
import io.bamel.server.client.MaintenanceCommand;
import io.bamel.server.client.PowerCommand;
import io.bamel.server.client.WatchCommand;
import io.bamel.server.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code bamel}: the command line. Subcommands: {@code server} (the service), {@code demo} (a
 * simulated fleet on an embedded etcd), {@code bmc} (check a BMC), {@code token} (make an API
 * token), {@code etcd} (etcd's space and alarms, defragmentation), {@code sync netbox} (pull NetBox
 * once, or print the plan); and the client commands ({@code get}, {@code describe}, {@code power},
 * {@code maintenance}, {@code cordon}, {@code uncordon}, {@code watch}, {@code inspect}, {@code
 * completion}; package {@code io.bamel.server.client}), which talk to a server's REST API.
 */
@Command(
    name = "bamel",
    mixinStandardHelpOptions = true,
    version = "bamel 0.1.0",
    description = "Bare-metal inventory service backed by etcd.",
    subcommands = {
      GetCommand.class,
      DescribeCommand.class,
      PowerCommand.class,
      MaintenanceCommand.class,
      MaintenanceCommand.Cordon.class,
      MaintenanceCommand.Uncordon.class,
      WatchCommand.class,
      InspectCommand.class,
      ServerCommand.class,
      DemoCommand.class,
      TokenCommand.class,
      EtcdCommand.class,
      SyncCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable, ClientEnvironment.Holder {

  private final ClientEnvironment environment;

  Main(ClientEnvironment environment) {
    this.environment = environment;
  }

  @Override
  public ClientEnvironment clientEnvironment() {
    return environment;
  }

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
    return commandLine(ClientEnvironment.system());
  }

  /**
   * The command line whose client commands read {@code environment}; {@code bmc} resolves {@code
   * --node} through the inventory ({@link InventoryBmc}, whose options it gains).
   */
  static CommandLine commandLine(ClientEnvironment environment) {
    CommandLine command = new CommandLine(new Main(environment));
    InventoryBmc inventory = new InventoryBmc(environment);
    CommandLine bmc = new CommandLine(new BmcCommand(inventory));
    bmc.getCommandSpec().addMixin("inventory", CommandSpec.forAnnotatedObject(inventory));
    command.addSubcommand("bmc", bmc);
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
