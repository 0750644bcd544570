package io.bamel.power.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bamel.power.sim.IpmiSimulator;
import java.util.List;

/**
 * The gate of the tests that run the real ipmi_sim and ipmitool. {@code make test} installs both,
 * so a missing tool fails the test with a message naming its Debian package; only {@code
 * BAMEL_SKIP_IPMI=1} in the environment skips these tests instead.
 */
public final class IpmiTools {

  /** The environment variable that skips the IPMI tests when set to {@code 1}. */
  public static final String SKIP_VARIABLE = "BAMEL_SKIP_IPMI";

  private IpmiTools() {}

  /** Skips the calling test when asked to, fails it when a tool is missing, else returns. */
  public static void require() {
    assumeTrue(!"1".equals(System.getenv(SKIP_VARIABLE)), SKIP_VARIABLE + "=1: IPMI tests skipped");
    List<String> missing = IpmiSimulator.missingTools();
    if (!missing.isEmpty()) {
      fail(
          "the IPMI tests need "
              + String.join(" and ", missing)
              + " on PATH: install them (make test does, through scripts/ensure-deps.sh),"
              + " or set "
              + SKIP_VARIABLE
              + "=1 to skip these tests");
    }
  }
}
