package io.bamel.node;

import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.kube.testing.KubeObjects;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The setup the node controller's integration tests share: an etcd for the test class (every key
 * deleted before each test) and the {@link TestSite} a test opens over it, {@link #site}, closed
 * after the test. A test opens its site itself, because whether it has a Kubernetes API is the
 * test's to say: with one, the controllers drain and wait for nodes to join; without, they do
 * neither. A subclass's own {@code @AfterEach} runs before the site is closed.
 */
abstract class TestSiteTests {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  /** How long a test waits for a state by default (a class that needs longer hides it). */
  static final Duration WAIT = Duration.ofSeconds(30);

  /** The site this test opened, or null. */
  TestSite site;

  /** Opens this test's site without Kubernetes (the controllers see a disconnected cluster). */
  TestSite openSite() {
    return open(false);
  }

  /** Opens this test's site with the fabric8 mock API server and fake kubelets. */
  TestSite openKubernetesSite() {
    return open(true);
  }

  private TestSite open(boolean kubernetes) {
    if (site != null) {
      throw new IllegalStateException("this test has opened its site already");
    }
    site = new TestSite(ETCD.cluster(), kubernetes);
    return site;
  }

  @AfterEach
  void closeSite() {
    if (site != null) {
      site.close();
    }
  }

  /** Creates a running pod of ReplicaSet {@code rs} on {@code node}, labelled, with no requests. */
  void addWorkload(String node, String name, Map<String, String> labels) {
    site.kube
        .pods()
        .resource(
            KubeObjects.pod(name)
                .labels(labels)
                .owner("ReplicaSet", "rs", "u-" + name)
                .onNode(node)
                .build())
        .create();
  }
}
