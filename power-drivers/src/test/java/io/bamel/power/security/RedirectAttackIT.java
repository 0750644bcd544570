package io.bamel.power.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.net.testing.RedirectTrap;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.redfish.RedfishDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Redfish BMC or a Proxmox host at an allowed address answers {@code 302} to another origin
 * (finding 5 of issue 30): the driver follows nothing, the other origin receives not even a
 * connection, and the call fails terminally saying which origin it refused.
 */
class RedirectAttackIT {

  @TempDir Path dir;

  private CredentialStore credentials() throws Exception {
    Path bmc = Files.createDirectories(dir.resolve("bmc"));
    Files.writeString(bmc.resolve("username"), "admin\n");
    Files.writeString(bmc.resolve("password"), "redirect-attack-password\n");
    Files.writeString(bmc.resolve(CredentialStore.ALLOWED_HOSTS), "http://127.0.0.1\n");
    Path pve = Files.createDirectories(dir.resolve("pve"));
    Files.writeString(pve.resolve("token"), "root@pam!bamel=redirect-attack-secret\n");
    Files.writeString(pve.resolve(CredentialStore.ALLOWED_HOSTS), "http://127.0.0.1\n");
    return new CredentialStore(dir);
  }

  private static void assertRefused(PowerDriver driver, BmcEndpoint endpoint, RedirectTrap trap) {
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint, Deadline.in(Duration.ofSeconds(10))))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.PROTOCOL);
              assertThat(e.getMessage())
                  .contains("refused redirect to another origin " + trap.otherOrigin())
                  .doesNotContain("redirect-attack");
            });
    assertThat(trap.allowedRequests()).isPositive();
    assertThat(trap.otherConnections()).isZero();
  }

  @Test
  void attack_redfishRedirectToOtherOrigin() throws Exception {
    try (RedirectTrap trap = RedirectTrap.start()) {
      RedfishDriver driver = new RedfishDriver(credentials());
      try {
        assertRefused(
            driver,
            new BmcEndpoint(trap.allowedOrigin(), "bmc", TlsSettings.DEFAULT, Map.of()),
            trap);
      } finally {
        driver.close();
      }
    }
  }

  @Test
  void attack_proxmoxRedirectToOtherOrigin() throws Exception {
    try (RedirectTrap trap = RedirectTrap.start()) {
      ProxmoxDriver driver = new ProxmoxDriver(credentials());
      try {
        assertRefused(
            driver,
            new BmcEndpoint(
                trap.allowedOrigin(),
                "pve",
                TlsSettings.DEFAULT,
                Map.of(ProxmoxDriver.OPTION_NODE, "pve1", ProxmoxDriver.OPTION_VMID, "101")),
            trap);
      } finally {
        driver.close();
      }
    }
  }
}
