package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.BootDevice;
import io.bamel.power.BootMode;
import io.bamel.power.BootOverride;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import org.junit.jupiter.api.Test;

class BootPlanTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BootOverride PXE_PERSISTENT = new BootOverride(BootDevice.PXE, true);

  private static JsonNode boot(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void withoutAllowableValuesPersistentIsContinuousAndTheModeIsNotSent() throws Exception {
    BootPlan plan = BootPlan.of(boot("{\"BootSourceOverrideMode\":\"UEFI\"}"), PXE_PERSISTENT);
    assertThat(plan.body().toString())
        .isEqualTo(
            "{\"Boot\":{\"BootSourceOverrideTarget\":\"Pxe\",\"BootSourceOverrideEnabled\":\"Continuous\"}}");
    assertThat(plan.notes()).isEmpty();
    assertThat(plan.summary()).isEqualTo("Boot Pxe Continuous");
  }

  @Test
  void persistentFallsBackToOnceWithANoteWhereContinuousIsNotOffered() throws Exception {
    BootPlan plan =
        BootPlan.of(
            boot("{\"BootSourceOverrideEnabled@Redfish.AllowableValues\":[\"Once\",\"Disabled\"]}"),
            PXE_PERSISTENT);
    assertThat(plan.enabled()).isEqualTo("Once");
    assertThat(plan.notes()).singleElement().asString().contains("next boot only");
    assertThat(plan.summary()).isEqualTo("Boot Pxe Once");
  }

  @Test
  void aContinuousRefusedAfterwardsBecomesOnceWithANote() throws Exception {
    BootPlan once = BootPlan.of(boot("{}"), PXE_PERSISTENT).once("it answered HTTP 400");
    assertThat(once.body().path("Boot").path("BootSourceOverrideEnabled").asText())
        .isEqualTo("Once");
    assertThat(once.notes()).singleElement().asString().contains("HTTP 400");
  }

  @Test
  void aTargetOrOnceTheBmcDoesNotOfferIsUnsupported() {
    assertThatThrownBy(
            () ->
                BootPlan.of(
                    boot("{\"BootSourceOverrideTarget@Redfish.AllowableValues\":[\"Hdd\",\"Cd\"]}"),
                    BootOverride.pxeOnce()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED))
        .hasMessageContaining("Pxe");
    assertThatThrownBy(
            () ->
                BootPlan.of(
                    boot(
                        "{\"BootSourceOverrideEnabled@Redfish.AllowableValues\":[\"Continuous\"]}"),
                    BootOverride.pxeOnce()))
        .hasMessageContaining("Once");
  }

  @Test
  void aWritableModeIsSentBackAsItIsUnlessAnotherIsAsked() throws Exception {
    JsonNode supermicro =
        boot(
            """
            {"BootSourceOverrideMode":"UEFI",
             "BootSourceOverrideMode@Redfish.AllowableValues":["Legacy","UEFI"]}
            """);
    assertThat(BootPlan.of(supermicro, BootOverride.pxeOnce()).summary())
        .isEqualTo("Boot Pxe Once UEFI");
    assertThat(
            BootPlan.of(supermicro, new BootOverride(BootDevice.DISK, false, BootMode.LEGACY))
                .summary())
        .isEqualTo("Boot Hdd Once Legacy");
  }

  @Test
  void aModeThatCannotBeWrittenIsNotSentAndAnotherOneIsRefused() throws Exception {
    JsonNode xcc = boot("{\"BootSourceOverrideMode\":\"UEFI\"}");
    assertThat(BootPlan.of(xcc, new BootOverride(BootDevice.PXE, false, BootMode.UEFI)).summary())
        .isEqualTo("Boot Pxe Once");
    assertThatThrownBy(
            () -> BootPlan.of(xcc, new BootOverride(BootDevice.PXE, false, BootMode.LEGACY)))
        .isInstanceOf(TerminalPowerException.class)
        .hasMessageContaining("BootSourceOverrideMode");
  }

  @Test
  void aModeIsRefusedWhereBootHasNoModeProperty() throws Exception {
    // DMTF's public-bladed Systems/*/Boot: a target and its allowable values, no mode
    JsonNode blade =
        boot(
            """
            {"BootSourceOverrideEnabled":"Disabled","BootSourceOverrideTarget":"None",
             "BootSourceOverrideTarget@Redfish.AllowableValues":["None","Pxe","Hdd"]}""");
    assertThatThrownBy(
            () -> BootPlan.of(blade, new BootOverride(BootDevice.PXE, false, BootMode.UEFI)))
        .isInstanceOf(TerminalPowerException.class)
        .hasMessageContaining("has no BootSourceOverrideMode");
    assertThat(BootPlan.of(blade, new BootOverride(BootDevice.PXE, false, null)).summary())
        .isEqualTo("Boot Pxe Once");
  }
}
