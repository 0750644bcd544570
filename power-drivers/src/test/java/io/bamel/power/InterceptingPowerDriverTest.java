package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.testing.NoOpDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Every call of the SPI reaches the wrapped driver through the hook, named by its operation. */
class InterceptingPowerDriverTest {

  private final BmcEndpoint endpoint = BmcEndpoint.of("192.0.2.9", "bmc");
  private final Deadline deadline = Deadline.in(Duration.ofSeconds(1));

  /** The real driver: records what reached it, reports what execute sent. */
  private static final class Real extends NoOpDriver {
    final List<String> reached = new ArrayList<>();
    boolean closed;

    Real() {
      super("real");
    }

    @Override
    public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) {
      reached.add("status");
      return BmcPowerState.ON;
    }

    @Override
    public void powerOn(BmcEndpoint endpoint, Deadline deadline) {
      reached.add("on");
    }

    @Override
    public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline) {
      reached.add("execute " + command.operation().label());
      return new PowerResult.Builder().sent("ForceOff").build();
    }

    @Override
    public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) {
      reached.add("draw");
      return OptionalDouble.of(120);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  /** Writes down each operation the hook saw and its endpoint's address (other tests use it). */
  static final class Recording extends InterceptingPowerDriver {
    final List<String> seen = new ArrayList<>();

    Recording(PowerDriver real) {
      super(real);
    }

    @Override
    protected <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
        throws PowerException {
      seen.add(operation.label() + " " + endpoint.address());
      return call.run();
    }
  }

  @Test
  void eachCallGoesThroughTheHookAsItsOperationAndItsAnswerComesBack() throws Exception {
    Real real = new Real();
    Recording driver = new Recording(real);

    assertThat(driver.powerInterface()).isEqualTo("real");
    assertThat(driver.bmcPowerState(endpoint, deadline)).isEqualTo(BmcPowerState.ON);
    driver.powerOn(endpoint, deadline);
    driver.powerOff(endpoint, PowerOffMode.FORCE, deadline);
    driver.powerCycle(endpoint, deadline);
    assertThat(driver.powerDraw(endpoint, deadline)).hasValue(120);
    assertThat(driver.execute(PowerCommand.off(PowerOffMode.FORCE), endpoint, deadline).sent())
        .as("execute goes to the real driver's execute, its report kept")
        .containsExactly("ForceOff");
    assertThatThrownBy(() -> driver.inspect(endpoint, deadline))
        .isInstanceOf(TerminalPowerException.class);
    driver.close();

    assertThat(driver.seen)
        .containsExactly(
            "status 192.0.2.9",
            "on 192.0.2.9",
            "off 192.0.2.9",
            "cycle 192.0.2.9",
            "power_draw 192.0.2.9",
            "off 192.0.2.9",
            "inspect 192.0.2.9");
    assertThat(real.reached).containsExactly("status", "on", "draw", "execute off");
    assertThat(real.closed).isTrue();
  }
}
