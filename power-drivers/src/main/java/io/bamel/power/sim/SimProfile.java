package io.bamel.power.sim;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The shape of one vendor family's Redfish service, for a simulated system: resource ids, where the
 * reset types are published, how sessions and ETags work, what the boot override accepts, where
 * power readings live and which network interfaces are listed. Each profile is modelled on the
 * vendor's public Redfish documentation and on payloads published by DMTF and vendors; the JSON the
 * simulator serves is its own.
 *
 * <p>Select one with {@link SimSystemConfig#withProfile(SimProfile)} (or {@code --profile NAME} on
 * the simulator's command line); {@link #DEFAULT} is the simulator as it always was.
 *
 * @param name the profile's name ({@code default}, {@code idrac9}, ...)
 * @param manufacturer the system's {@code Manufacturer}
 * @param model the system's {@code Model}
 * @param biosVersion the system's {@code BiosVersion}
 * @param systemId the ComputerSystem's id
 * @param chassisId the system's chassis id
 * @param managerId the BMC's Manager id
 * @param trailingSlash whether every {@code @odata.id} ends with {@code /} (iLO)
 * @param resetTypes the reset types the system accepts
 * @param resetPublication where those are published
 * @param sessionsPath the sessions collection below the service root
 * @param loginWithoutToken whether a successful login answers without {@code X-Auth-Token} (then
 *     only Basic authentication works)
 * @param etags how the System's ETag is given and required
 * @param bootEnabledValues the {@code BootSourceOverrideEnabled} values accepted
 * @param publishBootEnabled whether {@code BootSourceOverrideEnabled@Redfish.AllowableValues} is
 *     published
 * @param bootModeValues the {@code BootSourceOverrideMode@Redfish.AllowableValues} published
 *     (empty: none, and the mode is not writable)
 * @param resetsBootModeUnlessSent whether a boot PATCH without {@code BootSourceOverrideMode} sets
 *     the mode to {@code Legacy} (Supermicro)
 * @param power where the chassis power reading is
 * @param hostInterface how the BMC's host interface NIC appears
 * @param nics how many network interfaces the system has
 * @param vlanInterface whether a VLAN interface repeats the first NIC's MAC
 * @param gpus the models of the GPUs listed among the processors
 * @param bladeEnclosure whether the system links to its enclosure's chassis before its own blade
 *     chassis (the enclosure reports the whole enclosure's draw)
 */
public record SimProfile(
    String name,
    String manufacturer,
    String model,
    String biosVersion,
    String systemId,
    String chassisId,
    String managerId,
    boolean trailingSlash,
    List<String> resetTypes,
    ResetPublication resetPublication,
    String sessionsPath,
    boolean loginWithoutToken,
    Etags etags,
    List<String> bootEnabledValues,
    boolean publishBootEnabled,
    List<String> bootModeValues,
    boolean resetsBootModeUnlessSent,
    Power power,
    HostInterface hostInterface,
    int nics,
    boolean vlanInterface,
    List<String> gpus,
    boolean bladeEnclosure) {

  /** Where the allowed reset types are published. */
  public enum ResetPublication {
    /** Inline {@code ResetType@Redfish.AllowableValues} only. */
    INLINE,
    /** Only in the action's {@code @Redfish.ActionInfo} resource (OpenBMC's bmcweb). */
    ACTION_INFO,
    /** Both, and they agree (Lenovo XCC). */
    INLINE_AND_ACTION_INFO,
    /**
     * An inline list with a display name in place of an enum value ({@code Graceful Shutdown}),
     * with the correct list in ActionInfo (Supermicro).
     */
    MALFORMED_INLINE_AND_ACTION_INFO
  }

  /** How the System's ETag is given and whether a boot PATCH needs {@code If-Match}. */
  public enum Etags {
    /** No ETag at all. */
    NONE,
    /** The {@code ETag} header and {@code @odata.etag}; {@code If-Match} needed once given. */
    HEADER_AND_BODY,
    /** Only {@code @odata.etag} in the body; every PATCH needs {@code If-Match} (428). */
    BODY_ONLY_REQUIRED
  }

  /** Where a chassis reports its power draw. */
  public enum Power {
    /** The deprecated {@code Power} resource ({@code PowerControl[0].PowerConsumedWatts}). */
    LEGACY,
    /** {@code Power}, {@code PowerSubsystem} and {@code EnvironmentMetrics.PowerWatts}. */
    ALL,
    /** {@code PowerSubsystem} only: the power supplies' {@code Metrics.InputPowerWatts}. */
    SUBSYSTEM_ONLY
  }

  /** How the BMC's host interface (the host's USB or virtual NIC to its BMC) appears. */
  public enum HostInterface {
    /** Not listed. */
    NONE,
    /** A system Ethernet interface named {@code ToManager} (Lenovo XCC, DMTF's mockups). */
    TO_MANAGER,
    /**
     * A system Ethernet interface linked from the Manager's {@code HostInterfaces}/{@code
     * HostEthernetInterfaces} (OpenBMC, iDRAC).
     */
    HOST_INTERFACES
  }

  private static final List<String> ALL_BOOT_ENABLED = List.of("Disabled", "Once", "Continuous");

  /** The simulator as it always was: ids {@code 1}, every reset type inline, legacy power. */
  public static final SimProfile DEFAULT =
      new SimProfile(
          "default",
          "bamel",
          "Simulated Server S1",
          "1.0.0",
          "1",
          "1",
          "1",
          false,
          SimSystemConfig.FULL_RESET_TYPES,
          ResetPublication.INLINE,
          "/SessionService/Sessions",
          false,
          Etags.HEADER_AND_BODY,
          ALL_BOOT_ENABLED,
          false,
          List.of(),
          false,
          Power.LEGACY,
          HostInterface.NONE,
          1,
          false,
          List.of(),
          false);

  /**
   * Dell iDRAC 9: {@code System.Embedded.1}; the reset types inline, {@code PowerCycle} among them;
   * every power resource; the OS-to-iDRAC pass-through NIC as a host interface; GPUs among the
   * processors.
   */
  public static final SimProfile IDRAC9 =
      new SimProfile(
          "idrac9",
          "Dell Inc.",
          "PowerEdge R750",
          "1.10.2",
          "System.Embedded.1",
          "System.Embedded.1",
          "iDRAC.Embedded.1",
          false,
          List.of(
              "On",
              "ForceOff",
              "ForceRestart",
              "GracefulRestart",
              "GracefulShutdown",
              "PushPowerButton",
              "Nmi",
              "PowerCycle"),
          ResetPublication.INLINE,
          "/SessionService/Sessions",
          false,
          Etags.HEADER_AND_BODY,
          ALL_BOOT_ENABLED,
          true,
          List.of(),
          false,
          Power.ALL,
          HostInterface.HOST_INTERFACES,
          2,
          false,
          List.of("NVIDIA A100-PCIE-40GB", "NVIDIA A100-PCIE-40GB"),
          false);

  /**
   * Dell iDRAC 8: no {@code GracefulShutdown} and no restart type that cycles ({@code
   * PushPowerButton} and {@code GracefulRestart} instead); sessions at {@code /redfish/v1/Sessions}
   * answering without {@code X-Auth-Token}; no ETags; legacy power only.
   */
  public static final SimProfile IDRAC8 =
      new SimProfile(
          "idrac8",
          "Dell Inc.",
          "PowerEdge R730",
          "2.11.0",
          "System.Embedded.1",
          "System.Embedded.1",
          "iDRAC.Embedded.1",
          false,
          List.of("On", "ForceOff", "GracefulRestart", "PushPowerButton", "Nmi"),
          ResetPublication.INLINE,
          "/Sessions",
          true,
          Etags.NONE,
          ALL_BOOT_ENABLED,
          false,
          List.of(),
          false,
          Power.LEGACY,
          HostInterface.NONE,
          2,
          false,
          List.of(),
          false);

  /**
   * HPE iLO 5 (as many iLO 4 and early iLO 5 releases publish it): every link ends with {@code /};
   * {@code PushPowerButton} and no {@code GracefulShutdown}; legacy power.
   */
  public static final SimProfile ILO5 =
      new SimProfile(
          "ilo5",
          "HPE",
          "ProLiant DL360 Gen10",
          "U32 v2.68 (07/14/2022)",
          "1",
          "1",
          "1",
          true,
          List.of("On", "ForceOff", "ForceRestart", "Nmi", "PushPowerButton"),
          ResetPublication.INLINE,
          "/SessionService/Sessions",
          false,
          Etags.HEADER_AND_BODY,
          ALL_BOOT_ENABLED,
          false,
          List.of(),
          false,
          Power.LEGACY,
          HostInterface.NONE,
          2,
          false,
          List.of(),
          false);

  /**
   * Lenovo XClarity Controller: the reset types inline and in ActionInfo; {@code @odata.etag} in
   * the body only and {@code If-Match} required on every PATCH; {@code BootSourceOverrideEnabled}
   * allows only {@code Once} and {@code Disabled}; a {@code ToManager} host interface NIC.
   */
  public static final SimProfile XCC =
      new SimProfile(
          "xcc",
          "Lenovo",
          "ThinkSystem SR650 V2",
          "AFE128B-1.40",
          "1",
          "1",
          "1",
          false,
          List.of(
              "On",
              "Nmi",
              "GracefulShutdown",
              "GracefulRestart",
              "ForceOn",
              "ForceOff",
              "ForceRestart"),
          ResetPublication.INLINE_AND_ACTION_INFO,
          "/SessionService/Sessions",
          false,
          Etags.BODY_ONLY_REQUIRED,
          List.of("Disabled", "Once"),
          true,
          List.of(),
          false,
          Power.ALL,
          HostInterface.TO_MANAGER,
          2,
          false,
          List.of(),
          false);

  /**
   * Supermicro X12: a malformed inline reset list (display names) with the correct one in
   * ActionInfo; {@code BootSourceOverrideMode} writable and reset to {@code Legacy} by a boot PATCH
   * that does not send it.
   */
  public static final SimProfile SUPERMICRO_X12 =
      new SimProfile(
          "supermicro-x12",
          "Supermicro",
          "SYS-120U-TNR",
          "1.4",
          "1",
          "1",
          "1",
          false,
          List.of(
              "On",
              "ForceOff",
              "GracefulShutdown",
              "GracefulRestart",
              "ForceRestart",
              "Nmi",
              "ForceOn"),
          ResetPublication.MALFORMED_INLINE_AND_ACTION_INFO,
          "/SessionService/Sessions",
          false,
          Etags.HEADER_AND_BODY,
          ALL_BOOT_ENABLED,
          true,
          List.of("Legacy", "UEFI"),
          true,
          Power.LEGACY,
          HostInterface.NONE,
          2,
          true,
          List.of(),
          false);

  /**
   * OpenBMC (bmcweb): ids {@code system}, {@code chassis}, {@code bmc}; the reset types only in
   * ActionInfo ({@code On}, {@code ForceOff}, {@code GracefulShutdown}, {@code PowerCycle}); power
   * only through {@code PowerSubsystem}; the host interface NIC linked from the Manager.
   */
  public static final SimProfile OPENBMC =
      new SimProfile(
          "openbmc",
          "OpenBMC",
          "OpenBMC Server",
          "2.14.0",
          "system",
          "chassis",
          "bmc",
          false,
          List.of("On", "ForceOff", "GracefulShutdown", "PowerCycle"),
          ResetPublication.ACTION_INFO,
          "/SessionService/Sessions",
          false,
          Etags.HEADER_AND_BODY,
          ALL_BOOT_ENABLED,
          true,
          List.of(),
          false,
          Power.SUBSYSTEM_ONLY,
          HostInterface.HOST_INTERFACES,
          2,
          true,
          List.of(),
          false);

  /** Every named profile. */
  public static final List<SimProfile> ALL =
      List.of(DEFAULT, IDRAC9, IDRAC8, ILO5, XCC, SUPERMICRO_X12, OPENBMC);

  /** Checks and copies. */
  public SimProfile {
    Objects.requireNonNull(name, "name");
    resetTypes = List.copyOf(resetTypes);
    bootEnabledValues = List.copyOf(bootEnabledValues);
    bootModeValues = List.copyOf(bootModeValues);
    gpus = List.copyOf(gpus);
    if (nics < 1) {
      throw new IllegalArgumentException("a system has at least one NIC");
    }
  }

  /** The profile named {@code name} (case-insensitive). */
  public static SimProfile named(String name) {
    String wanted = name.trim().toLowerCase(Locale.ROOT);
    return ALL.stream()
        .filter(p -> p.name().equals(wanted))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no simulator profile '"
                        + name
                        + "' (known: "
                        + ALL.stream().map(SimProfile::name).toList()
                        + ")"));
  }

  /**
   * This profile in a blade: the system links first to the enclosure's chassis (which reports the
   * whole enclosure's draw and contains the blade), then to its own blade chassis.
   */
  public SimProfile inBladeEnclosure() {
    return new SimProfile(
        name + "+blade",
        manufacturer,
        model,
        biosVersion,
        systemId,
        chassisId,
        managerId,
        trailingSlash,
        resetTypes,
        resetPublication,
        sessionsPath,
        loginWithoutToken,
        etags,
        bootEnabledValues,
        publishBootEnabled,
        bootModeValues,
        resetsBootModeUnlessSent,
        power,
        hostInterface,
        nics,
        vlanInterface,
        gpus,
        true);
  }
}
