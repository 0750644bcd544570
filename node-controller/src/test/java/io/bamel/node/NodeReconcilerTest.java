package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.model.NodeSpec;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * The pure parts of reconciling: which Kubernetes node a node is ({@link NodeKube#kubeName}), the
 * cause word of a failed BMC read ({@link NodeReconciler#cause}); and how a Kubernetes outage is
 * logged (once, then once at recovery).
 */
class NodeReconcilerTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "UNREACHABLE: connect to 192.0.2.17:443 refused | UNREACHABLE",
        "TLS: PKIX path building failed: unable to find valid certification path | TLS",
        "BAD_CREDENTIALS: 401 Unauthorized | BAD_CREDENTIALS",
        "NOT_ALLOWED: credential rack1 may not be sent to 192.0.2.99 | NOT_ALLOWED",
        "the node has no powerInterface | the node has no powerInterface",
        "Weird: text | Weird: text"
      })
  void aFailedReadsCauseIsItsReasonWord(String error, String cause) {
    assertThat(NodeReconciler.cause(error)).isEqualTo(cause);
  }

  @Test
  void aKubernetesOutageWarnsOnceAndItsEndIsOneInfo() {
    AtomicBoolean down = new AtomicBoolean(true);
    Cluster cluster =
        (Cluster)
            Proxy.newProxyInstance(
                Cluster.class.getClassLoader(),
                new Class<?>[] {Cluster.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "enabled", "synced" -> true;
                      case "node" -> {
                        if (down.get()) {
                          throw new ClusterException("connect to 192.0.2.1:6443 refused", null);
                        }
                        yield Optional.empty();
                      }
                      default -> throw new UnsupportedOperationException(method.getName());
                    });
    Logger logger = (Logger) LoggerFactory.getLogger(NodeKube.class);
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    logger.addAppender(events);
    try {
      NodeKube kube = new NodeKube(cluster, OwnsEveryNode.INSTANCE, Clock.systemUTC());
      NodeSpec spec = NodeSpec.builder().build();
      for (int i = 0; i < 5; i++) {
        assertThat(kube.observe("n" + i, spec, null)).isEqualTo(KubeView.UNREACHABLE);
      }
      down.set(false);
      kube.observe("n1", spec, null);
      kube.observe("n2", spec, null);
    } finally {
      logger.detachAppender(events);
    }
    assertThat(events.list)
        .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
        .extracting(ILoggingEvent::getLevel, ILoggingEvent::getFormattedMessage)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Level.WARN,
                "kubernetes-read failed: cluster=kubernetes cause=unavailable"
                    + " reason=\"connect to 192.0.2.1:6443 refused\""),
            org.assertj.core.groups.Tuple.tuple(
                Level.INFO,
                "kubernetes-read recovered: cluster=kubernetes cause=unavailable after=0m0s"
                    + " suppressed=4"));
  }

  static Stream<Arguments> kubeNames() {
    return Stream.of(
        // kubernetesNodeName, name, id -> the Kubernetes node looked up
        Arguments.of("k8s-a", "inventory-a", "n1", "k8s-a"),
        Arguments.of("k8s-a", null, "n1", "k8s-a"),
        Arguments.of(null, "inventory-a", "n1", "inventory-a"),
        Arguments.of("", "inventory-a", "n1", "inventory-a"),
        Arguments.of("  ", "inventory-a", "n1", "inventory-a"),
        Arguments.of(null, null, "n1", "n1"),
        Arguments.of(null, " ", "n1", "n1"),
        Arguments.of("", "", "n1", "n1"));
  }

  @ParameterizedTest(name = "kubernetesNodeName={0} name={1} id={2} -> {3}")
  @MethodSource("kubeNames")
  void theKubernetesNodeIsKubernetesNodeNameElseTheNameElseTheId(
      String kubernetesNodeName, String name, String id, String expected) {
    NodeSpec spec = NodeSpec.builder().name(name).kubernetesNodeName(kubernetesNodeName).build();
    assertThat(NodeKube.kubeName(id, spec)).isEqualTo(expected);
  }
}
