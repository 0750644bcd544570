package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reporting driver's four action methods are its {@code execute}, each run once. */
class ReportingPowerDriverTest {

  private final BmcEndpoint endpoint = BmcEndpoint.of("192.0.2.9", "bmc");
  private final Deadline deadline = Deadline.in(Duration.ofSeconds(1));
  private final BootOverride pxeOnce = new BootOverride(BootDevice.PXE, false);

  /** Writes down each command that reached its {@code execute}, and reports it as sent. */
  private static final class Reporting extends ReportingPowerDriver {
    final List<PowerCommand> ran = new ArrayList<>();

    @Override
    public String powerInterface() {
      return "reporting";
    }

    @Override
    public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) {
      return BmcPowerState.ON;
    }

    @Override
    public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline) {
      ran.add(command);
      return new PowerResult.Builder().sent(command.operation().label()).build();
    }

    @Override
    public void close() {}
  }

  @Test
  void eachActionMethodRunsExecuteOnceWithItsCommand() throws Exception {
    Reporting driver = new Reporting();

    driver.powerOn(endpoint, deadline);
    driver.powerOff(endpoint, PowerOffMode.GRACEFUL, deadline);
    driver.powerCycle(endpoint, deadline);
    driver.setBootDevice(endpoint, pxeOnce, deadline);

    assertThat(driver.ran)
        .containsExactly(
            PowerCommand.on(),
            PowerCommand.off(PowerOffMode.GRACEFUL),
            PowerCommand.cycle(),
            PowerCommand.boot(pxeOnce));
  }

  @Test
  void aWrapperOfBothTheMethodsAndExecuteSeesEachCallOnce() throws Exception {
    Reporting real = new Reporting();
    InterceptingPowerDriverTest.Recording driver = new InterceptingPowerDriverTest.Recording(real);

    driver.powerOn(endpoint, deadline);
    PowerResult reported = driver.execute(PowerCommand.cycle(), endpoint, deadline);
    driver.setBootDevice(endpoint, pxeOnce, deadline);

    assertThat(driver.seen).containsExactly("on 192.0.2.9", "cycle 192.0.2.9", "boot 192.0.2.9");
    assertThat(real.ran)
        .containsExactly(PowerCommand.on(), PowerCommand.cycle(), PowerCommand.boot(pxeOnce));
    assertThat(reported.sent()).as("execute's report comes back").containsExactly("cycle");
  }
}
