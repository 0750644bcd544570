package io.bamel.server;

import io.bamel.server.client.ClientEnvironment;
import io.bamel.server.client.CompletionCommand;
import io.bamel.server.client.DescribeCommand;
import io.bamel.server.client.GetCommand;
import io.bamel.server.client.InspectCommand;
import io.bamel.server.client.InventoryBmc;
import io.bamel.server.client.MaintenanceCommand;
import io.bamel.server.client.PowerCommand;
import io.bamel.server.client.SimulateCommand;
import io.bamel.server.client.TrainingCommand;
import io.bamel.server.client.WatchCommand;
import io.bamel.server.client.bmc.BmcCommand;
import io.bamel.server.demo.DemoCommand;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bamel}: the command line. Subcommands: {@code server} (the service), {@code demo} (a
 * simulated fleet on an embedded etcd), {@code bmc} (check a BMC), {@code token} (make an API
 * token), {@code etcd} (etcd's space and alarms, defragmentation), {@code sync netbox} (pull NetBox
 * once, or print the plan), {@code simulate} (replay a workload against bamel's decisions and rival
 * autoscalers, in process); and the client commands ({@code get}, {@code describe}, {@code power},
 * {@code maintenance}, {@code cordon}, {@code uncordon}, {@code watch}, {@code inspect}, {@code
 * completion}; package {@code io.bamel.server.client}), which talk to a server's REST API.
 */
@Command(
    name = "bamel",
    mixinStandardHelpOptions = true,
    version = "bamel 0.1.0",
    description = "Bare-metal inventory service backed by etcd.")
public final class Main implements Runnable, ClientEnvironment.Holder {

  /**
   * The subcommands in the order help lists them ({@code bmc} is added apart, and {@code help}
   * last). A command line for one of them alone builds only that one's model: picocli reads every
   * registered command's annotations up front, which is most of a short command's start-up.
   */
  private static final Map<String, Class<?>> SUBCOMMANDS = new LinkedHashMap<>();

  static {
    SUBCOMMANDS.put("get", GetCommand.class);
    SUBCOMMANDS.put("describe", DescribeCommand.class);
    SUBCOMMANDS.put("power", PowerCommand.class);
    SUBCOMMANDS.put("maintenance", MaintenanceCommand.class);
    SUBCOMMANDS.put("cordon", MaintenanceCommand.Cordon.class);
    SUBCOMMANDS.put("uncordon", MaintenanceCommand.Uncordon.class);
    SUBCOMMANDS.put("watch", WatchCommand.class);
    SUBCOMMANDS.put("inspect", InspectCommand.class);
    SUBCOMMANDS.put("server", ServerCommand.class);
    SUBCOMMANDS.put("demo", DemoCommand.class);
    SUBCOMMANDS.put("token", TokenCommand.class);
    SUBCOMMANDS.put("etcd", EtcdCommand.class);
    SUBCOMMANDS.put("sync", SyncCommand.class);
    SUBCOMMANDS.put("simulate", SimulateCommand.class);
    SUBCOMMANDS.put("completion", CompletionCommand.class);
    SUBCOMMANDS.put("client-training", TrainingCommand.class);
  }

  private final ClientEnvironment environment;

  @Spec CommandSpec spec;

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
    System.exit(commandLine(ClientEnvironment.system(), subcommand(args)).execute(args));
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
    return commandLine(environment, null);
  }

  /**
   * The name of the subcommand {@code args} run, when it is one that needs no other (not {@code
   * help} or {@code completion}, which read the whole tree); null otherwise.
   */
  static String subcommand(String[] args) {
    for (String arg : args) {
      if (arg.startsWith("-")) {
        continue;
      }
      boolean alone =
          SUBCOMMANDS.containsKey(arg) && !arg.equals("completion") || arg.equals("bmc");
      return alone ? arg : null;
    }
    return null;
  }

  /** The command line with subcommand {@code only} alone, or with all of them when it is null. */
  static CommandLine commandLine(ClientEnvironment environment, String only) {
    CommandLine command = new CommandLine(new Main(environment));
    SUBCOMMANDS.forEach(
        (name, type) -> {
          if (only == null || only.equals(name)) {
            command.addSubcommand(name, type);
          }
        });
    if (only == null || only.equals("bmc")) {
      InventoryBmc inventory = new InventoryBmc(environment);
      CommandLine bmc = new CommandLine(new BmcCommand(inventory));
      bmc.getCommandSpec().addMixin("inventory", CommandSpec.forAnnotatedObject(inventory));
      command.addSubcommand("bmc", bmc);
    }
    if (only == null) {
      command.addSubcommand("help", CommandLine.HelpCommand.class);
    }
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
    spec.commandLine().usage(System.out);
  }
}
