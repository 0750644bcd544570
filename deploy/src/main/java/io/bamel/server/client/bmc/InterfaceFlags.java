package io.bamel.server.client.bmc;

import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flags of {@code bamel bmc} that the power interfaces own: every registered interface's {@link
 * PowerInterfaceType#cliFlags()}, added to the command's model before it parses (a picocli model
 * transformer), so that {@code BmcCommand} names no interface's flag. Each flag's value becomes the
 * endpoint option the flag declares. A flag name is a wire for scripts: an interface keeps its
 * flags' names. Two interfaces claiming one flag, or a flag the command has already, is an error at
 * start.
 */
public final class InterfaceFlags implements CommandLine.IModelTransformer {

  /** Adds each registered interface's flags to {@code command}. */
  @Override
  public CommandSpec transform(CommandSpec command) {
    Map<String, String> owners = new LinkedHashMap<>();
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      for (CliFlag flag : type.cliFlags()) {
        String owner = owners.putIfAbsent(flag.name(), type.name());
        if (owner != null || command.findOption(flag.name()) != null) {
          throw new IllegalStateException(
              "bamel bmc: flag "
                  + flag.name()
                  + " of power interface "
                  + type.name()
                  + " is taken already"
                  + (owner == null ? "" : " by " + owner));
        }
        command.addOption(
            OptionSpec.builder(flag.name())
                .paramLabel(flag.paramLabel())
                .description(flag.description())
                .type(String.class)
                .build());
      }
    }
    return command;
  }

  /** The endpoint options the interface flags given on {@code command}'s line set. */
  static Map<String, String> options(CommandSpec command) {
    Map<String, String> options = new HashMap<>();
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      for (CliFlag flag : type.cliFlags()) {
        OptionSpec option = command.findOption(flag.name());
        Object value = option == null ? null : option.getValue();
        if (value != null) {
          options.put(flag.option(), value.toString());
        }
      }
    }
    return options;
  }
}
