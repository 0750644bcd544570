package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.embedded.EtcdProcess;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which ports the embedded etcd tries, without a socket: first the remembered pair, else the
 * preferred one; after etcd refused some, each refused port replaced by a fresh one that was never
 * refused, the other kept; and the ports read from etcd's own words.
 */
class EmbeddedEtcdPortsTest {

  private static final EmbeddedEtcdPorts PREFERRED = new EmbeddedEtcdPorts(2379, 2380);

  /** Fresh ports handed out in this order, as the operating system would. */
  private static IntSupplier fresh(Integer... ports) {
    Deque<Integer> queue = new ArrayDeque<>(List.of(ports));
    return () -> {
      if (queue.isEmpty()) {
        throw new AssertionError("more fresh ports asked for than the test has");
      }
      return queue.poll();
    };
  }

  @Test
  void aNewDataDirectoryTriesThePreferredPortsAndAnOldOneItsOwn() {
    assertThat(EmbeddedEtcdPorts.first(Optional.empty(), PREFERRED)).isEqualTo(PREFERRED);
    EmbeddedEtcdPorts own = new EmbeddedEtcdPorts(41001, 41002);
    assertThat(EmbeddedEtcdPorts.first(Optional.of(own), PREFERRED)).isEqualTo(own);
    assertThat(EmbeddedEtcdPorts.PREFERRED).isEqualTo(PREFERRED);
  }

  @ParameterizedTest(name = "refused {0}: client {1}, peer {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # refused     | client | peer   (fresh ports: 50001, then 50002)
          2380          | 2379   | 50001
          2379          | 50001  | 2380
          2379 2380     | 50001  | 50002
          2380 9999     | 2379   | 50001
          """)
  void eachRefusedPortIsReplacedAndTheOtherKept(String refused, int client, int peer) {
    Set<Integer> ports = set(refused);
    assertThat(PREFERRED.replacing(ports, ports, fresh(50001, 50002)))
        .isEqualTo(new EmbeddedEtcdPorts(client, peer));
  }

  @Test
  void aFreshPortThatWasRefusedBeforeOrIsTheOtherPortIsNotTaken() {
    // 2379 was refused at the first start, the peer port 50001 at the second: the third start's
    // peer port is neither of them, nor the client port 50005 it keeps.
    EmbeddedEtcdPorts second = new EmbeddedEtcdPorts(50005, 50001);
    EmbeddedEtcdPorts third =
        second.replacing(Set.of(50001), Set.of(2379, 50001), fresh(2379, 50001, 50005, 50006));
    assertThat(third).isEqualTo(new EmbeddedEtcdPorts(50005, 50006));
  }

  @Test
  void bothRefusedGetTwoDifferentPortsEvenWhenTheSystemHandsOutOneTwice() {
    assertThat(PREFERRED.replacing(Set.of(2379, 2380), Set.of(), fresh(50001, 50001, 50002)))
        .isEqualTo(new EmbeddedEtcdPorts(50001, 50002));
  }

  @Test
  void noUsablePortInTwentyDrawsIsAClearError() {
    assertThatThrownBy(() -> PREFERRED.replacing(Set.of(2380), Set.of(2380), () -> 2380))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no usable port in 20 tries");
  }

  @Test
  void refusedPortsThatAreNotThePairsAreAnError() {
    assertThatThrownBy(() -> PREFERRED.replacing(Set.of(9999), Set.of(), fresh(50001)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("neither of client 2379 and peer 2380");
  }

  static Stream<Arguments> etcdOutputs() {
    return Stream.of(
        // etcd 3.4 with --logger=zap, as bamel starts it
        Arguments.of(
            "{\"level\":\"fatal\",\"msg\":\"discovery failed\",\"error\":\"listen tcp"
                + " 127.0.0.1:2380: bind: address already in use\",\"stacktrace\":\"...\"}",
            Set.of(2380)),
        // etcd with the older capnslog logger
        Arguments.of(
            "2021-05-19 19:39:19.537896 C | etcdmain: listen tcp 127.0.0.1:2379: bind: address"
                + " already in use",
            Set.of(2379)),
        Arguments.of(
            "{\"msg\":\"discovery failed\",\"error\":\"listen tcp [::1]:40000: bind: address"
                + " already in use\"}",
            Set.of(40000)),
        // not a port in use: nothing to move
        Arguments.of(
            "{\"msg\":\"serving client traffic securely\",\"address\":\"127.0.0.1:2379\"}",
            Set.of()),
        Arguments.of(
            "{\"msg\":\"discovery failed\",\"error\":\"listen tcp 127.0.0.1:80: bind:"
                + " permission denied\"}",
            Set.of()));
  }

  @ParameterizedTest
  @MethodSource("etcdOutputs")
  void theRefusedPortsAreReadFromEtcdsOwnWords(String output, Set<Integer> refused) {
    assertThat(EtcdProcess.portsInUse(output)).isEqualTo(refused);
  }

  @Test
  void thePortsFileHoldsTheClientThenThePeerPort() {
    EmbeddedEtcdPorts ports = new EmbeddedEtcdPorts(41001, 41002);
    assertThat(ports.fileText()).isEqualTo("41001\n41002\n");
    assertThat(EmbeddedEtcdPorts.parse(ports.fileText())).isEqualTo(ports);
    assertThat(EmbeddedEtcdPorts.parse(" 2379\r\n2380")).isEqualTo(PREFERRED);
  }

  @ParameterizedTest(name = "''{0}''")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          2379                  | expected two lines
          2379\\n2380\\n2381    | expected two lines
          2379\\nx              | expected two port numbers
          2379\\n2379           | two different numbers
          0\\n2380              | two different numbers
          2379\\n70000          | two different numbers
          """)
  void aPortsFileThatIsNotTwoPortsIsRefused(String text, String message) {
    assertThatThrownBy(() -> EmbeddedEtcdPorts.parse(text.replace("\\n", "\n")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  private static Set<Integer> set(String ports) {
    if (ports == null || ports.isBlank()) {
      return Set.of();
    }
    return new LinkedHashSet<>(
        Arrays.stream(ports.trim().split("\\s+")).map(Integer::valueOf).toList());
  }
}
