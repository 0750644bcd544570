package io.bamel.node;

import io.bamel.inventory.testing.EtcdExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The setup the node controller's integration tests share: an etcd for the test class (every key
 * deleted before each test) and the {@link TestSite} a test makes over it, {@link #site}, closed
 * after the test. A subclass's own {@code @AfterEach} runs before the site is closed.
 */
abstract class TestSiteTests {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  /** The site this test made ({@code new TestSite(ETCD.cluster(), ...)}), or null. */
  TestSite site;

  @AfterEach
  void closeSite() {
    if (site != null) {
      site.close();
    }
  }
}
