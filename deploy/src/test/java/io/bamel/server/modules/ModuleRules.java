package io.bamel.server.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The module graph of docs/architecture.md as a table: each module, the bamel modules its main code
 * may depend on, and the ones its tests may use besides. An arrow not in the table (one that runs
 * back up, sideways or to {@code deploy}) is a violation; so is a module missing from the table. A
 * row whose module does not exist yet is tolerated, so a module is added in one line.
 *
 * <p>Pure: {@link #violations} reads the declared arrows it is given, nothing else.
 */
final class ModuleRules {

  /** One row: a module, what its main code may depend on, and what its tests may use besides. */
  record Rule(String module, Set<String> main, Set<String> testsAlso) {}

  /** A declared dependency of one module on another bamel module. */
  record Arrow(String from, String to, boolean testScope) {}

  static final List<Rule> TABLE =
      List.of(
          new Rule("outbound-http", Set.of(), Set.of()),
          new Rule("redfish-dmtf", Set.of(), Set.of()),
          new Rule("power-spi", Set.of(), Set.of()),
          // the model checks specs against the registered power interfaces; its tests register the
          // real ones
          new Rule("inventory-core", Set.of("power-spi"), Set.of("power-drivers")),
          // power-spi: which spec fields are power-control fields; its tests register the real
          // interfaces
          new Rule(
              "inventory-sync", Set.of("inventory-core", "power-spi"), Set.of("power-drivers")),
          // power-drivers at run time only: the registered interfaces validate the specs it takes;
          // dcim-netbox: the NetBox routes call its NetBoxEndpoints
          new Rule(
              "inventory-api",
              Set.of(
                  "inventory-core", "inventory-sync", "dcim-netbox", "power-spi", "power-drivers"),
              Set.of()),
          // no HTTP server: the API depends on it, never the other way; its tests register the
          // real power interfaces
          new Rule(
              "dcim-netbox",
              Set.of("inventory-core", "inventory-sync", "outbound-http"),
              Set.of("power-drivers")),
          new Rule("kube-cluster", Set.of("inventory-core", "outbound-http"), Set.of()),
          new Rule("power-drivers", Set.of("outbound-http", "power-spi"), Set.of("redfish-dmtf")),
          new Rule("bmc-simulator", Set.of("power-drivers", "redfish-dmtf"), Set.of()),
          new Rule(
              "node-controller",
              Set.of("inventory-core", "power-drivers", "power-spi"),
              Set.of("bmc-simulator", "kube-cluster", "pool-controller", "outbound-http")),
          new Rule(
              "pool-controller",
              Set.of("inventory-core", "outbound-http", "power-spi"),
              Set.of("kube-cluster", "power-drivers")),
          // bamel simulate: the pool and node controllers' real decisions on a fake clock, so above
          // both
          new Rule(
              "pool-simulator",
              Set.of("pool-controller", "node-controller", "inventory-core", "power-drivers"),
              Set.of()),
          new Rule(
              "deploy",
              Set.of(
                  "inventory-core",
                  "inventory-sync",
                  "inventory-api",
                  "dcim-netbox",
                  "kube-cluster",
                  "node-controller",
                  "pool-controller",
                  "pool-simulator",
                  "power-drivers",
                  "power-spi",
                  "bmc-simulator",
                  "outbound-http",
                  "redfish-dmtf"),
              Set.of()),
          new Rule(
              "bench",
              Set.of(
                  "inventory-core",
                  "inventory-sync",
                  "inventory-api",
                  "dcim-netbox",
                  "kube-cluster",
                  "node-controller",
                  "pool-controller",
                  "pool-simulator",
                  "power-drivers",
                  "power-spi",
                  "bmc-simulator",
                  "outbound-http"),
              Set.of()));

  private ModuleRules() {}

  /**
   * What is wrong with the given modules and their declared arrows under {@code table}: one line
   * per arrow the table does not allow and per module the table does not name; empty when the graph
   * is the table's.
   */
  static List<String> violations(List<Rule> table, Set<String> modules, List<Arrow> arrows) {
    Map<String, Rule> rules =
        table.stream().collect(Collectors.toMap(Rule::module, Function.identity()));
    List<String> found = new ArrayList<>();
    for (String module : new TreeSet<>(modules)) {
      if (!rules.containsKey(module)) {
        found.add(module + " is not in the module table (ModuleRules.TABLE)");
      }
    }
    for (Arrow arrow : arrows) {
      Rule rule = rules.get(arrow.from());
      if (rule == null) {
        continue; // reported above
      }
      boolean allowed =
          rule.main().contains(arrow.to())
              || (arrow.testScope() && rule.testsAlso().contains(arrow.to()));
      if (!allowed) {
        found.add(
            arrow.from()
                + " -> "
                + arrow.to()
                + (arrow.testScope() ? " (test scope)" : "")
                + " is not an arrow of the module graph (docs/architecture.md#modules)");
      }
    }
    return found;
  }
}
