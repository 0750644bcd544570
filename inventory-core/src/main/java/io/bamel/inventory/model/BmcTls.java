package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * TLS settings for talking to a node's BMC (or Proxmox host). Verification is on by default:
 * against the JVM's trust store, against {@code caFile} (a PEM bundle path on the controller's
 * host) when given, or against exactly one certificate when {@code pinnedSha256} (its SHA-256
 * fingerprint, 64 hex digits, colons allowed as Proxmox shows it) is given. {@code
 * insecureSkipVerify: true} is the explicit per-node opt-out. At most one of the three may be set.
 */
public record BmcTls(
    String caFile,
    Boolean insecureSkipVerify,
    String pinnedSha256,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-fA-F]{64}");

  /** Normalises a missing extension map to an empty one. */
  public BmcTls {
    extensions = Extensions.copy(extensions);
  }

  /** Whether verification is skipped (only when explicitly asked). */
  public boolean skipsVerification() {
    return Boolean.TRUE.equals(insecureSkipVerify);
  }

  /** The pinned fingerprint as 64 lower-case hex digits without colons, or null. */
  public String pinnedFingerprint() {
    return pinnedSha256 == null ? null : pinnedSha256.replace(":", "").toLowerCase(Locale.ROOT);
  }

  /** Checks the fingerprint's form and that only one way of verifying is chosen. */
  void validate(Validator v) {
    if (pinnedSha256 != null) {
      v.check(
          FINGERPRINT.matcher(pinnedSha256.replace(":", "")).matches(),
          "pinnedSha256",
          "must be a SHA-256 fingerprint: 64 hex digits, colons allowed");
    }
    int chosen =
        (caFile != null ? 1 : 0) + (skipsVerification() ? 1 : 0) + (pinnedSha256 != null ? 1 : 0);
    v.check(
        chosen <= 1, "pinnedSha256", "choose one of caFile, pinnedSha256 and insecureSkipVerify");
  }
}
