package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * The hardware the node controller found by inspecting a node through its BMC: stored at {@code
 * status.hardware}, written only when an inspection ends (on first contact, or on request through
 * {@code POST /api/v1/nodes/{id}/inspect}), never on a periodic sync. It is what the BMC says, next
 * to the DCIM-owned fields of the spec, which it never overwrites.
 *
 * @param inspectedAt when the inspection ended (a new value for every inspection asked for, even
 *     when nothing else changed: clients wait for it to change)
 * @param vendor the system's manufacturer, or null
 * @param model the system's model, or null
 * @param serial the system's serial number, or null
 * @param systemUuid the system's SMBIOS UUID as the BMC reports it (Redfish {@code
 *     ComputerSystem.UUID}), lowercase, or null when the BMC does not say; the node controller
 *     checks it against the Kubernetes node's {@code status.nodeInfo.systemUUID} before acting on
 *     that node ({@code KubernetesIdentityRefused})
 * @param biosVersion the BIOS (or primary firmware) version, or null
 * @param cpu the processors, or null when the BMC does not say
 * @param memoryMiB installed memory in MiB, or null
 * @param gpus the GPUs by model, each with its count (absent when none are listed)
 * @param macs the system's NIC MAC addresses, lowercase, each once, without the BMC's host
 *     interface (absent when none)
 * @param error why the last inspection failed (the facts are then those of the previous successful
 *     one, if any); null after a success
 * @param extensions fields written by a newer bamel, kept as they are
 */
@Value.Builder
public record NodeHardware(
    Instant inspectedAt,
    String vendor,
    String model,
    String serial,
    String systemUuid,
    String biosVersion,
    Cpu cpu,
    Long memoryMiB,
    List<Gpu> gpus,
    List<String> macs,
    String error,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /**
   * The processors.
   *
   * @param model the processor model, or null
   * @param count the number of processors (sockets), or null
   */
  public record Cpu(String model, Integer count) {}

  /**
   * GPUs of one model.
   *
   * @param model the model (null when the BMC does not name it)
   * @param count how many
   */
  public record Gpu(String model, int count) {}

  /** Facts without a system UUID (an inspection that could not read one). */
  public NodeHardware(
      Instant inspectedAt,
      String vendor,
      String model,
      String serial,
      String biosVersion,
      Cpu cpu,
      Long memoryMiB,
      List<Gpu> gpus,
      List<String> macs,
      String error,
      Map<String, Object> extensions) {
    this(
        inspectedAt,
        vendor,
        model,
        serial,
        null,
        biosVersion,
        cpu,
        memoryMiB,
        gpus,
        macs,
        error,
        extensions);
  }

  /**
   * Copies the lists (an empty list is stored as absent) and the extension map; escapes control
   * characters in the BMC's texts and the error ({@link UntrustedText}).
   */
  public NodeHardware {
    vendor = UntrustedText.escape(vendor);
    model = UntrustedText.escape(model);
    serial = UntrustedText.escape(serial);
    biosVersion = UntrustedText.escape(biosVersion);
    error = UntrustedText.escape(error);
    gpus = gpus == null || gpus.isEmpty() ? null : List.copyOf(gpus);
    macs = macs == null || macs.isEmpty() ? null : List.copyOf(macs);
    extensions = Extensions.copy(extensions);
  }

  /** The same facts with another inspection time and error. */
  public NodeHardware at(Instant inspectedAt, String error) {
    return new NodeHardwareBuilder().from(this).inspectedAt(inspectedAt).error(error).build();
  }

  /** Whether the facts (everything but {@code inspectedAt} and {@code error}) equal {@code o}'s. */
  public boolean sameFacts(NodeHardware o) {
    return o != null && at(null, null).equals(o.at(null, null));
  }
}
