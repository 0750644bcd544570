package io.bamel.server.client;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel maintenance on|off NODE...}: sets or clears {@code spec.maintenance} ({@link
 * Maintenance}); {@code bamel cordon} and {@code bamel uncordon} are the same in kubectl's words.
 */
@Command(
    name = "maintenance",
    mixinStandardHelpOptions = true,
    description =
        "Puts nodes in maintenance (on: bamel leaves them alone) or takes them out (off).")
public final class MaintenanceCommand extends ClientCommand {

  @Parameters(
      index = "0",
      paramLabel = "on|off",
      completionCandidates = OnOff.class,
      description = "on or off")
  String onOff;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "NODE", description = "node ids")
  List<String> nodes;

  /** on and off, for completion. */
  static final class OnOff extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    OnOff() {
      super(List.of("on", "off"));
    }
  }

  @Override
  protected int run(ApiClient api) {
    if (!onOff.equals("on") && !onOff.equals("off")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "expected on or off, not " + onOff);
    }
    return Maintenance.apply(this, api, nodes, onOff.equals("on"));
  }

  /** {@code bamel cordon NODE...}: maintenance on. */
  @Command(
      name = "cordon",
      mixinStandardHelpOptions = true,
      description = "Puts nodes in maintenance: bamel stops every action on them (maintenance on).")
  public static final class Cordon extends ClientCommand {
    @Parameters(arity = "1..*", paramLabel = "NODE", description = "node ids")
    List<String> nodes;

    @Override
    protected int run(ApiClient api) {
      return Maintenance.apply(this, api, nodes, true);
    }
  }

  /** {@code bamel uncordon NODE...}: maintenance off. */
  @Command(
      name = "uncordon",
      mixinStandardHelpOptions = true,
      description = "Takes nodes out of maintenance (maintenance off).")
  public static final class Uncordon extends ClientCommand {
    @Parameters(arity = "1..*", paramLabel = "NODE", description = "node ids")
    List<String> nodes;

    @Override
    protected int run(ApiClient api) {
      return Maintenance.apply(this, api, nodes, false);
    }
  }
}
