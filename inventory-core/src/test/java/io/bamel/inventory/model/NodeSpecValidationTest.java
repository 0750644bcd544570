package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.bamel.inventory.store.Codec;
import io.bamel.power.ipmi.IpmiInterface;
import io.bamel.power.ipmi.IpmiSettings;
import io.bamel.power.proxmox.ProxmoxInterface;
import io.bamel.power.proxmox.ProxmoxVm;
import io.bamel.power.wol.WakeOnLan;
import io.bamel.power.wol.WolInterface;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ListAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class NodeSpecValidationTest {

  private static NodeSpecBuilder valid() {
    return NodeSpec.builder()
        .name("r1-u07")
        .serial("SN123")
        .pool("general")
        .mgmtAddress("https://192.0.2.7")
        .macAddress("0C:C4:7A:12:34:56")
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials("rack1-bmc")
        .resources(ResourceCapacity.of("32", "256Gi", null))
        .desiredPower(DesiredPower.OFF);
  }

  /** The Wake-on-LAN settings with {@code probePort} and {@code powerOffCommand}. */
  private static WakeOnLan probe(Integer probePort, String powerOffCommand) {
    return new WakeOnLan(null, probePort, powerOffCommand, null);
  }

  /** {@code b}'s spec on Wake-on-LAN with {@code settings} (null: none). */
  private static NodeSpec wol(NodeSpecBuilder b, WakeOnLan settings) {
    return b.powerInterface(PowerInterface.of("wol"))
        .build()
        .withSettings(WolInterface.FIELD, settings);
  }

  private static final ProxmoxVm VM = new ProxmoxVm("pve1", 101, null);

  /**
   * The valid spec on {@code powerInterface}, with the settings it needs (a probe port, a VM),
   * booting {@code profile}.
   */
  private static NodeSpec booting(String powerInterface, String profile) {
    NodeSpecBuilder b = valid().powerInterface(PowerInterface.of(powerInterface));
    return switch (powerInterface) {
      case "wol" -> wol(b.bootProfile(profile), probe(22, null));
      case "proxmox" -> b.bootProfile(profile).build().withSettings(ProxmoxInterface.FIELD, VM);
      default -> b.bootProfile(profile).build();
    };
  }

  @Test
  void validSpecPassesAndMacIsCanonical() {
    NodeSpec spec = valid().build().validate();
    assertThat(spec.macAddress()).isEqualTo("0c:c4:7a:12:34:56");
  }

  @Test
  void reportsEveryInvalidFieldAtOnce() {
    NodeSpec spec =
        valid()
            .pool("Bad/Pool")
            .macAddress("nope")
            .mgmtAddress("https://u:p@bmc")
            .rackPosition(-1)
            .labels(Map.of("bad key!", "v"))
            .build();
    assertThatThrownBy(spec::validate)
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e ->
                assertThat(e.errors())
                    .extracting(FieldError::field)
                    .contains("pool", "macAddress", "mgmtAddress", "rackPosition")
                    .anyMatch(f -> f.startsWith("labels.")));
  }

  @Test
  void redfishNeedsAManagementAddressAndWolAMac() {
    assertThatThrownBy(() -> valid().mgmtAddress(null).build().validate())
        .hasMessageContaining("mgmtAddress: required for redfish");
    assertThatThrownBy(
            () ->
                valid()
                    .powerInterface(PowerInterface.of("wol"))
                    .macAddress(null)
                    .build()
                    .validate())
        .hasMessageContaining("macAddress: required for wol");
  }

  private static java.util.List<String> fields(NodeSpec spec) {
    try {
      spec.validate();
      return java.util.List.of();
    } catch (InvalidInputException e) {
      return e.errors().stream().map(FieldError::field).toList();
    }
  }

  @Test
  void wakeOnLanNeedsAProbePortOnTheManagementAddress() {
    assertThat(fields(wol(valid(), null))).containsExactly("wakeOnLan.probePort");
    assertThat(fields(wol(valid(), probe(null, "ssh-off")))).containsExactly("wakeOnLan.probePort");
    assertThat(fields(wol(valid(), probe(22, null)))).isEmpty();
    assertThat(fields(wol(valid().mgmtAddress(null), probe(22, null))))
        .containsExactly("mgmtAddress");
    assertThatThrownBy(() -> wol(valid(), null).validate())
        .hasMessageContaining("wakeOnLan.probePort: required for wol");
  }

  @ParameterizedTest(name = "{0} booting ''{1}'': refused {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "none",
      textBlock =
          """
          redfish | pxe             | none
          ipmi    | pxe             | none
          wol     | pxe             | bootProfile
          proxmox | pxe             | bootProfile
          redfish | PXE-ubuntu-24   | none
          ipmi    | PXE-ubuntu-24   | none
          wol     | PXE-ubuntu-24   | bootProfile
          proxmox | PXE-ubuntu-24   | bootProfile
          redfish | ' pxe:rescue '  | none
          ipmi    | ' pxe:rescue '  | none
          wol     | ' pxe:rescue '  | bootProfile
          proxmox | ' pxe:rescue '  | bootProfile
          wol     | disk            | none
          wol     | ipxe            | none
          wol     | no-pxe          | none
          """)
  void aNetworkBootProfileNeedsAnInterfaceThatCanSetTheBootDevice(
      String powerInterface, String profile, String refused) {
    assertThat(fields(booting(powerInterface, profile)))
        .containsExactlyElementsOf(refused == null ? List.of() : List.of(refused));
  }

  @Test
  void aNetworkBootOnProxmoxIsRefusedSayingWhy() {
    assertThatThrownBy(() -> booting("proxmox", "pxe").validate())
        .hasMessageContaining("bootProfile: 'pxe' boots from the network, which proxmox cannot");
  }

  @Test
  void bmcTlsTakesAWellFormedPinAndOneWayOfVerifying() {
    String pin = "AB:CD:" + "ef".repeat(30);
    NodeSpec pinned = valid().bmcTls(new BmcTls(null, null, pin, null)).build();
    assertThat(pinned.validate().bmcTls().pinnedFingerprint()).isEqualTo("abcd" + "ef".repeat(30));
    assertThatThrownBy(() -> valid().bmcTls(new BmcTls(null, null, "abc", null)).build().validate())
        .hasMessageContaining("bmcTls.pinnedSha256: must be a SHA-256 fingerprint");
    assertThatThrownBy(
            () -> valid().bmcTls(new BmcTls("/etc/ca.pem", null, pin, null)).build().validate())
        .hasMessageContaining("choose one of caFile, pinnedSha256 and insecureSkipVerify");
    assertThatThrownBy(() -> valid().bmcTls(new BmcTls(null, true, pin, null)).build().validate())
        .hasMessageContaining("choose one of");
  }

  @Test
  void proxmoxNeedsVm() {
    assertThatThrownBy(
            () -> valid().powerInterface(PowerInterface.of("proxmox")).build().validate())
        .hasMessageContaining("proxmox: required");
    NodeSpec ok =
        valid()
            .powerInterface(PowerInterface.of("proxmox"))
            .build()
            .withSettings(ProxmoxInterface.FIELD, VM);
    assertThat(ok.validate()).isSameAs(ok);
  }

  @Test
  void longTextIsRejectedWithoutEchoingIt() {
    String huge = "x".repeat(1_000_000);
    assertThatThrownBy(() -> valid().serial(huge).build().validate())
        .hasMessageContaining("serial: must be at most 256")
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(300));
  }

  @Test
  void kubernetesNodeNameMustBeADnsName() {
    assertThat(valid().kubernetesNodeName("worker-7.dc1").build().validate()).isNotNull();
    // Empty or spaces mean none: the node controller then goes by the name or the id.
    assertThat(valid().kubernetesNodeName(" ").build().validate()).isNotNull();
    assertThat(valid().kubernetesNodeName("").build().validate()).isNotNull();
    assertThatFieldsRefused(() -> valid().kubernetesNodeName("Bad Name!").build().validate())
        .containsExactly("kubernetesNodeName");
  }

  @ParameterizedTest
  @MethodSource("powerOffCommandNames")
  void aPowerOffCommandIsAName(String name) {
    assertThat(wol(valid(), probe(22, name)).validate()).isNotNull();
  }

  static Stream<String> powerOffCommandNames() {
    return Stream.of("ssh-off", "ipmi.soft_off", "0", "a".repeat(63));
  }

  @ParameterizedTest
  @MethodSource("powerOffCommandTexts")
  void aPowerOffCommandIsNeverCommandText(String text) {
    FieldError error = onlyError(() -> wol(valid(), probe(22, text)).validate());
    assertThat(error.field()).isEqualTo("wakeOnLan.powerOffCommand");
    assertThat(error.message()).contains("server's configuration");
  }

  static Stream<String> powerOffCommandTexts() {
    return Stream.of(
        "ssh root@192.0.2.5 poweroff",
        "/usr/bin/true",
        "off;reboot",
        "$(id)",
        "Off",
        "-off",
        "",
        "a".repeat(64));
  }

  @Test
  void nullMapValuesAndListElementsAreFieldErrors() {
    java.util.Map<String, String> labels = new java.util.HashMap<>();
    labels.put("k", null);
    assertThatFieldsRefused(() -> valid().labels(labels).build()).containsExactly("labels.'k'");
    java.util.List<ScalingTrigger> triggers = new java.util.ArrayList<>();
    triggers.add(null);
    assertThatFieldsRefused(() -> PoolConfig.builder().triggers(triggers).build())
        .containsExactly("triggers[0]");
  }

  @Test
  void enumsNameTheAcceptedValues() {
    assertThatThrownBy(() -> PowerInterface.fromJson("snmp"))
        .hasMessage(
            "powerInterface: unknown value 'snmp'; expected one of redfish, ipmi, wol, proxmox");
  }

  @Test
  void poolConfigChecksThresholdsAndBounds() {
    assertThatFieldsRefused(
            () ->
                PoolConfig.builder()
                    .minNodes(5)
                    .maxNodes(2)
                    .scaleUpThreshold(0.3)
                    .scaleDownThreshold(0.5)
                    .maxConcurrentTransitions(0)
                    .scaleUpCooldown(java.time.Duration.ofSeconds(-1))
                    .build()
                    .validate())
        .containsExactlyInAnyOrder(
            "maxNodes", "scaleDownThreshold", "maxConcurrentTransitions", "scaleUpCooldown");
    PoolConfig defaults = PoolConfig.builder().build().validate().withDefaults();
    assertThat(defaults.scaleUpThreshold()).isEqualTo(0.70);
    assertThat(defaults.scaleDownThreshold()).isEqualTo(0.60);
    // A pool with its own lower scale-up threshold keeps 0.10 of hysteresis below it, so a config
    // valid under the earlier 0.30 default stays valid.
    assertThat(
            PoolConfig.builder()
                .scaleUpThreshold(0.6)
                .build()
                .validate()
                .withDefaults()
                .scaleDownThreshold())
        .isEqualTo(0.50);
    assertThat(
            PoolConfig.builder()
                .scaleUpThreshold(0.35)
                .build()
                .validate()
                .withDefaults()
                .scaleDownThreshold())
        .isEqualTo(0.25);
    assertThat(PoolConfig.defaultScaleDown(0.05)).isEqualTo(0.0);
    PoolConfig.builder().scaleUpThreshold(0.6).scaleDownThreshold(0.3).build().validate();
    assertThat(defaults.maxConcurrentTransitions()).isEqualTo(5);
    assertThat(defaults.scaleUpCooldown()).isEqualTo(java.time.Duration.ofMinutes(2));
  }

  @Test
  void poolConfigChecksTheTrendWindowAndLookahead() {
    assertThatFieldsRefused(
            () ->
                PoolConfig.builder()
                    .scaleUpTrendWindow(java.time.Duration.ofSeconds(-1))
                    .scaleUpLookahead(java.time.Duration.ofHours(3))
                    .build()
                    .validate())
        .containsExactlyInAnyOrder("scaleUpTrendWindow", "scaleUpLookahead");
    assertThatThrownBy(
            () ->
                PoolConfig.builder()
                    .scaleUpTrendWindow(java.time.Duration.ofHours(2).plusSeconds(1))
                    .build()
                    .validate())
        .hasMessageContaining("scaleUpTrendWindow: must be at most 2h (0 turns the trend off)");
    PoolConfig set =
        PoolConfig.builder()
            .scaleUpTrendWindow(java.time.Duration.ofHours(2))
            .scaleUpLookahead(java.time.Duration.ZERO)
            .build()
            .validate();
    assertThat(set.withDefaults().scaleUpTrendWindow()).isEqualTo(java.time.Duration.ofHours(2));
    PoolConfig defaults = PoolConfig.builder().build().validate().withDefaults();
    assertThat(defaults.scaleUpTrendWindow()).isEqualTo(java.time.Duration.ZERO);
    assertThat(defaults.scaleUpLookahead()).isEqualTo(java.time.Duration.ofMinutes(5));
  }

  @Test
  void ipmiTakesSuitesZeroToSeventeenAndThreePrivileges() {
    assertThat(
            IpmiSettings.of(
                    valid()
                        .build()
                        .withSettings(IpmiInterface.FIELD, IpmiSettings.of(0, "USER"))
                        .validate()
                        .facts(null))
                .cipherSuite())
        .isZero();
    assertThat(
            valid()
                .build()
                .withSettings(IpmiInterface.FIELD, IpmiSettings.of(17, "ADMINISTRATOR"))
                .validate())
        .isNotNull();
    assertThat(
            valid()
                .build()
                .withSettings(IpmiInterface.FIELD, IpmiSettings.of(null, null))
                .validate())
        .isNotNull();
    assertThatThrownBy(
            () ->
                valid()
                    .build()
                    .withSettings(IpmiInterface.FIELD, IpmiSettings.of(18, null))
                    .validate())
        .hasMessageContaining("ipmi.cipherSuite: must be a cipher suite from 0 to 17");
    assertThatThrownBy(
            () ->
                valid()
                    .build()
                    .withSettings(IpmiInterface.FIELD, IpmiSettings.of(-1, null))
                    .validate())
        .hasMessageContaining("ipmi.cipherSuite");
    assertThatThrownBy(
            () ->
                valid()
                    .build()
                    .withSettings(IpmiInterface.FIELD, IpmiSettings.of(3, "admin"))
                    .validate())
        .hasMessageContaining("ipmi.privilege: must be one of USER, OPERATOR, ADMINISTRATOR");
  }

  @Test
  void aDesiredPowerStateIsNeverUnknown() throws Exception {
    FieldError error =
        onlyError(
            () ->
                Codec.decode(
                    "{\"powerState\":\"unknown\"}".getBytes(StandardCharsets.UTF_8),
                    NodeSpec.class));
    assertThat(error.field()).isEqualTo("powerState");
    assertThat(error.message()).isEqualTo("unknown value 'unknown'; expected one of on, off");
    assertThat(Codec.mapper().readValue("\"unknown\"", ObservedPower.class))
        .isEqualTo(ObservedPower.UNKNOWN);
  }

  @Test
  void javaCallersReadJsonNamesTooNamingTheType() {
    assertThat(JsonEnum.fromJson(PowerAction.class, "power-off-force"))
        .isEqualTo(PowerAction.POWER_OFF_FORCE);
    assertThatThrownBy(() -> JsonEnum.fromJson(DesiredPower.class, "unknown"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("desiredPower: unknown value 'unknown'; expected one of on, off");
  }

  /**
   * The one field error of the {@link InvalidInputException} that {@code call} throws, itself or as
   * the root cause (Jackson wraps it).
   */
  private static FieldError onlyError(ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isNotNull();
    Throwable root = thrown;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertThat(root).isInstanceOf(InvalidInputException.class);
    List<FieldError> errors = ((InvalidInputException) root).errors();
    assertThat(errors).hasSize(1);
    return errors.get(0);
  }

  /** The fields named by the {@link InvalidInputException} that {@code call} throws. */
  private static ListAssert<String> assertThatFieldsRefused(ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isInstanceOf(InvalidInputException.class);
    return assertThat(
        ((InvalidInputException) thrown).errors().stream().map(FieldError::field).toList());
  }
}
