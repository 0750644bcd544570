package io.bamel.inventory.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit Jupiter extension that runs a real etcd for a test class.
 *
 * <pre>{@code
 * @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();
 * @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.cluster(3);
 * }</pre>
 *
 * As a static field it starts etcd once before all tests of the class and stops it after them; as
 * an instance field, once per test. With {@link #clearBetweenTests()} every key is deleted before
 * each test. Test methods may take an {@link EtcdCluster} parameter. When the etcd binary is
 * missing the tests fail with a message naming the package to install.
 */
public final class EtcdExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final int size;
  private boolean clear;
  private boolean perClass;
  private EtcdCluster cluster;

  private EtcdExtension(int size) {
    this.size = size;
  }

  /** One member. */
  public static EtcdExtension singleNode() {
    return new EtcdExtension(1);
  }

  /** A cluster of {@code size} members (1 or 3). */
  public static EtcdExtension cluster(int size) {
    return new EtcdExtension(size);
  }

  /** Deletes every key before each test. */
  public EtcdExtension clearBetweenTests() {
    this.clear = true;
    return this;
  }

  /** The running cluster. */
  public EtcdCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("etcd is not running (is the extension registered?)");
    }
    return cluster;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    cluster = EtcdCluster.start(size);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!perClass) {
      cluster = EtcdCluster.start(size);
    } else if (clear) {
      cluster.clear();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  private void stop() {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == EtcdCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return cluster();
  }
}
