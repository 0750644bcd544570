package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.Drivers;
import io.bamel.power.InstrumentedPowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.process.ProcessResult;
import io.bamel.power.wol.PowerOffCommands;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The site-wide IPMI implementation (the driver's default) and a node's {@code
 * ipmi.implementation}: the node's wins, the site's applies otherwise, and the choice decides
 * whether ipmitool runs.
 */
class IpmiImplementationChoiceTest {

  private static final BmcEndpoint PLAIN = BmcEndpoint.of("127.0.0.1:9", "rack-a");

  @Test
  void theNodesSettingWinsOverTheSites() throws Exception {
    try (IpmiDriver site =
        new IpmiDriver(name -> Credentials.of("u", "p"), IpmiImplementation.IPMITOOL)) {
      assertThat(site.implementation(PLAIN)).isEqualTo(IpmiImplementation.IPMITOOL);
      assertThat(site.implementation(PLAIN.withOption(IpmiDriver.OPTION_IMPLEMENTATION, "native")))
          .isEqualTo(IpmiImplementation.NATIVE);
    }
    try (IpmiDriver site =
        new IpmiDriver(name -> Credentials.of("u", "p"), IpmiImplementation.NATIVE)) {
      assertThat(site.implementation(PLAIN)).isEqualTo(IpmiImplementation.NATIVE);
      assertThat(
              site.implementation(PLAIN.withOption(IpmiDriver.OPTION_IMPLEMENTATION, "IPMItool")))
          .isEqualTo(IpmiImplementation.IPMITOOL);
      assertThatThrownBy(
              () ->
                  site.implementation(
                      PLAIN.withOption(IpmiDriver.OPTION_IMPLEMENTATION, "freeipmi")))
          .isInstanceOf(TerminalPowerException.class)
          .hasMessageContaining("must be native or ipmitool, not 'freeipmi'");
    }
  }

  @Test
  void theStandardRegistryCarriesTheSitesSetting() throws Exception {
    for (IpmiImplementation chosen : IpmiImplementation.values()) {
      try (PowerDriverRegistry registry =
          Drivers.standard(
              name -> Credentials.of("u", "p"),
              PowerOffCommands.empty(),
              new PrometheusRegistry(),
              chosen)) {
        assertThat(ipmi(registry).implementation(PLAIN)).isEqualTo(chosen);
      }
    }
    try (PowerDriverRegistry registry =
        Drivers.standard(name -> Credentials.of("u", "p"), new PrometheusRegistry())) {
      assertThat(ipmi(registry).implementation(PLAIN)).isEqualTo(IpmiImplementation.NATIVE);
    }
  }

  @Test
  void ipmitoolRunsExactlyWhenTheChoiceSaysSo() throws Exception {
    // a loopback port nobody answers on: the native client gets no reply and gives up
    int silent;
    try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      silent = socket.getLocalPort();
    }
    BmcEndpoint bmc = BmcEndpoint.of("127.0.0.1:" + silent, "rack-a");
    record Case(IpmiImplementation site, String node, boolean ipmitoolRuns) {}
    for (Case c :
        List.of(
            new Case(IpmiImplementation.IPMITOOL, null, true),
            new Case(IpmiImplementation.NATIVE, "ipmitool", true),
            new Case(IpmiImplementation.IPMITOOL, "native", false))) {
      List<List<String>> argvs = new ArrayList<>();
      try (IpmiDriver driver =
          new IpmiDriver(
              name -> Credentials.of("operator", "pw"),
              IpmiConfig.defaults()
                  .withImplementation(c.site())
                  .withCommandTimeout(Duration.ofMillis(300)),
              (argv, env, timeout) -> {
                argvs.add(argv);
                return new ProcessResult(0, "Chassis Power is on\n", "", false);
              },
              Clock.systemUTC(),
              d -> {})) {
        BmcEndpoint endpoint =
            c.node() == null ? bmc : bmc.withOption(IpmiDriver.OPTION_IMPLEMENTATION, c.node());
        if (c.ipmitoolRuns()) {
          assertThat(driver.bmcPowerState(endpoint, Deadline.in(Duration.ofSeconds(5))))
              .isEqualTo(BmcPowerState.ON);
          assertThat(argvs).hasSize(1);
          assertThat(argvs.get(0)).contains("lanplus");
        } else {
          assertThatThrownBy(
                  () -> driver.bmcPowerState(endpoint, Deadline.in(Duration.ofSeconds(2))))
              .isInstanceOf(PowerException.class);
          assertThat(argvs).isEmpty();
        }
      }
    }
  }

  private static IpmiDriver ipmi(PowerDriverRegistry registry) throws Exception {
    return (IpmiDriver) ((InstrumentedPowerDriver) registry.driver("ipmi")).delegate();
  }
}
