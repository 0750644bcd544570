package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.Map;

/**
 * TLS settings for talking to a node's BMC. Verification is on by default: against the JVM's trust
 * store, or against {@code caFile} (a PEM bundle path on the controller's host) when given. {@code
 * insecureSkipVerify: true} is the explicit per-node opt-out.
 */
public record BmcTls(
    String caFile,
    Boolean insecureSkipVerify,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public BmcTls {
    extensions = Extensions.copy(extensions);
  }

  /** Whether verification is skipped (only when explicitly asked). */
  public boolean skipsVerification() {
    return Boolean.TRUE.equals(insecureSkipVerify);
  }
}
