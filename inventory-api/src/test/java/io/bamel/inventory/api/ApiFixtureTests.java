package io.bamel.inventory.api;

import io.bamel.inventory.testing.EtcdExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The setup the API's integration tests share: an etcd for the test class (every key deleted before
 * each test) and an {@link ApiFixture} over it, {@link #f}, started before each test and closed
 * after it. A subclass's own {@code @BeforeEach} runs after the fixture has started.
 */
abstract class ApiFixtureTests {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  /** This test's API server, store and clients. */
  ApiFixture f;

  @BeforeEach
  void startApi() throws Exception {
    f = ApiFixture.start(ETCD.cluster());
  }

  @AfterEach
  void stopApi() {
    f.close();
  }
}
