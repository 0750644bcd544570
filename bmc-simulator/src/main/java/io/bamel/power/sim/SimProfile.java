package io.bamel.power.sim;

import io.bamel.redfish.dmtf.DmtfFiles;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The shape of one vendor family's Redfish service, for a simulated system: which of DMTF's
 * published trees it starts from, the edits that give it the vendor's documented quirks (resource
 * ids, where the reset types are published, where the sessions live, which power and network
 * resources exist, trailing slashes), and how it behaves (accepted reset types and boot values,
 * ETags, login without a token). Each profile is a data file {@code profiles/NAME.yaml} beside this
 * class, modelled on the vendor's public Redfish documentation; the resources themselves are
 * DMTF's.
 *
 * <p>Select one with {@link SimSystemConfig#withProfile(SimProfile)} (or {@code --profile NAME} on
 * the simulator's command line); {@link #DEFAULT} is DMTF's {@code public-rackmount1} with one
 * system NIC, two CPUs and 256 GiB.
 *
 * @param name the profile's name ({@code default}, {@code idrac9}, ...)
 * @param mockup the published tree it starts from (one of {@link DmtfFiles#MOCKUPS})
 * @param resetTypes the reset types the system accepts
 * @param inlineResetNames reset types published inline under another (display) name (Supermicro)
 * @param etags how the System's ETag is given and required
 * @param loginWithoutToken whether a successful login answers without a session token (then only
 *     Basic authentication works)
 * @param bootEnabledValues the boot override enablings accepted
 * @param bootModeValues the boot modes accepted (empty: the mode is not writable)
 * @param bootModeWhenUnsent the mode a boot PATCH without one sets ({@code null}: unchanged)
 * @param nics how many distinct NIC MAC addresses the system lists (host interface aside)
 * @param gpus the models of the GPUs listed among the processors
 * @param bladeEnclosure whether the system links to its enclosure's chassis before its own blade
 *     chassis (the enclosure reports the whole enclosure's draw)
 * @param edits the changes to the published tree
 */
public record SimProfile(
    String name,
    String mockup,
    List<String> resetTypes,
    Map<String, String> inlineResetNames,
    Etags etags,
    boolean loginWithoutToken,
    List<String> bootEnabledValues,
    List<String> bootModeValues,
    String bootModeWhenUnsent,
    int nics,
    List<String> gpus,
    boolean bladeEnclosure,
    TreeEdits edits) {

  /** How the System's ETag is given and whether a boot PATCH needs {@code If-Match}. */
  public enum Etags {
    /** No ETag at all. */
    NONE,
    /** The {@code ETag} header and {@code @odata.etag}; {@code If-Match} needed once given. */
    HEADER_AND_BODY,
    /** Only {@code @odata.etag} in the body; every PATCH needs {@code If-Match} (428). */
    BODY_ONLY_REQUIRED
  }

  /** DMTF's {@code public-rackmount1} with one NIC, 256 GiB and every common reset type. */
  public static final SimProfile DEFAULT = load("default");

  /** Dell iDRAC 9 ({@code profiles/idrac9.yaml}). */
  public static final SimProfile IDRAC9 = load("idrac9");

  /** Dell iDRAC 8 ({@code profiles/idrac8.yaml}). */
  public static final SimProfile IDRAC8 = load("idrac8");

  /** HPE iLO 5 ({@code profiles/ilo5.yaml}). */
  public static final SimProfile ILO5 = load("ilo5");

  /** Lenovo XClarity Controller ({@code profiles/xcc.yaml}). */
  public static final SimProfile XCC = load("xcc");

  /** Supermicro X12 ({@code profiles/supermicro-x12.yaml}). */
  public static final SimProfile SUPERMICRO_X12 = load("supermicro-x12");

  /** OpenBMC's bmcweb ({@code profiles/openbmc.yaml}). */
  public static final SimProfile OPENBMC = load("openbmc");

  /** Every named profile. */
  public static final List<SimProfile> ALL =
      List.of(DEFAULT, IDRAC9, IDRAC8, ILO5, XCC, SUPERMICRO_X12, OPENBMC);

  /** Checks and copies. */
  public SimProfile {
    Objects.requireNonNull(name, "name");
    mockup = mockup == null ? DmtfFiles.MOCKUPS.get(0) : mockup;
    if (!DmtfFiles.MOCKUPS.contains(mockup)) {
      throw new IllegalArgumentException(
          "no published tree '" + mockup + "' (known: " + DmtfFiles.MOCKUPS + ")");
    }
    resetTypes = List.copyOf(resetTypes);
    inlineResetNames = inlineResetNames == null ? Map.of() : Map.copyOf(inlineResetNames);
    etags = etags == null ? Etags.HEADER_AND_BODY : etags;
    bootEnabledValues = List.copyOf(bootEnabledValues);
    bootModeValues = bootModeValues == null ? List.of() : List.copyOf(bootModeValues);
    gpus = gpus == null ? List.of() : List.copyOf(gpus);
    edits = edits == null ? TreeEdits.NONE : edits;
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
        mockup,
        resetTypes,
        inlineResetNames,
        etags,
        loginWithoutToken,
        bootEnabledValues,
        bootModeValues,
        bootModeWhenUnsent,
        nics,
        gpus,
        true,
        edits);
  }

  /**
   * This profile on another of DMTF's published trees ({@link DmtfFiles#MOCKUPS}); edits that name
   * resources the tree lacks are skipped, and the NIC and GPU counts become the tree's to check.
   */
  public SimProfile onMockup(String published) {
    return new SimProfile(
        name,
        published,
        resetTypes,
        inlineResetNames,
        etags,
        loginWithoutToken,
        bootEnabledValues,
        bootModeValues,
        bootModeWhenUnsent,
        nics,
        gpus,
        bladeEnclosure,
        edits);
  }

  private static SimProfile load(String name) {
    return SimVocabulary.readYaml("profiles/" + name + ".yaml", SimProfile.class);
  }
}
