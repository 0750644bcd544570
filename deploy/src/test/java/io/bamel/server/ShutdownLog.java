package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a stopped {@code bamel server}'s output for its shutdown: every part closed, none failed,
 * and in the order of a graceful stop (requests, controllers, leadership, cache, etcd client,
 * embedded etcd).
 */
final class ShutdownLog {

  private ShutdownLog() {}

  /**
   * Asserts the orderly stop of a server running every component.
   *
   * @param embedded whether it ran the embedded etcd
   */
  static void assertOrderlyStop(List<String> lines, boolean embedded) {
    assertOrderlyStop(lines, "api", embedded);
  }

  /**
   * Asserts the orderly stop of a server with both controllers.
   *
   * @param requests what served requests: {@code api} or {@code health and metrics endpoints}
   * @param embedded whether it ran the embedded etcd
   */
  static void assertOrderlyStop(List<String> lines, String requests, boolean embedded) {
    String output = String.join("\n", lines);
    assertThat(lines).as(output).noneMatch(l -> l.contains("shutdown: closing"));
    List<List<String>> stages = new ArrayList<>();
    stages.add(List.of(requests));
    stages.add(List.of("node-controller", "pool-controller"));
    stages.add(List.of("leadership of node-controller", "leadership of pool-controller"));
    stages.add(List.of("inventory cache"));
    stages.add(List.of("etcd client"));
    if (embedded) {
      stages.add(List.of("embedded etcd"));
    }
    int previous = -1;
    String previousName = "the start";
    for (List<String> stage : stages) {
      int last = -1;
      for (String name : stage) {
        int at = indexOf(lines, "shutdown: " + name + " closed");
        assertThat(at).as("'shutdown: %s closed' in:\n%s", name, output).isNotNegative();
        assertThat(at)
            .as("%s closed after %s in:\n%s", name, previousName, output)
            .isGreaterThan(previous);
        last = Math.max(last, at);
      }
      previous = last;
      previousName = String.join(" and ", stage);
    }
    assertThat(indexOf(lines, "bamel server stopped")).as(output).isGreaterThan(previous);
  }

  private static int indexOf(List<String> lines, String text) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }
}
