package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.node.KubeIdentity.Outcome;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The identity rule as a table: stored UUID, reported UUID, provider ID, outcome; and what a node
 * the watched cache does not hold says.
 */
class KubeIdentityTest {

  static final String UUID = "4c4c4544-0042-3510-8053-b4c04f4e3232";

  /** {@link #UUID} with its first three fields byte-swapped (SMBIOS 2.6+ little-endian). */
  static final String SWAPPED = "44454c4c-4200-1035-8053-b4c04f4e3232";

  @ParameterizedTest(name = "stored={0} reported={1} providerID={2} -> {3}")
  @CsvSource(
      nullValues = "-",
      value = {
        // system UUID
        UUID + ", " + UUID + ", -, PROVEN",
        UUID + ", 4C4C4544-0042-3510-8053-B4C04F4E3232, -, PROVEN",
        UUID + ", " + SWAPPED + ", -, PROVEN",
        SWAPPED + ", " + UUID + ", -, PROVEN",
        UUID + ", {4c4c4544-0042-3510-8053-b4c04f4e3232}, -, PROVEN",
        UUID + ", 4c4c454400423510 8053b4c04f4e3232, -, UNKNOWN",
        UUID + ", 4c4c4544-0042-3510-8053-b4c04f4e3233, -, MISMATCH",
        // swapping the last two fields is not the SMBIOS variant
        UUID + ", 4c4c4544-0042-3510-5380-32324e4fc0b4, -, MISMATCH",
        "-, " + UUID + ", -, UNKNOWN",
        UUID + ", -, -, UNKNOWN",
        UUID + ", not-a-uuid, -, UNKNOWN",
        // placeholders shared by many boards prove nothing
        "03000200-0400-0500-0006-000700080009, 03000200-0400-0500-0006-000700080009, -, UNKNOWN",
        "00020003-0004-0005-0006-000700080009, 03000200-0400-0500-0006-000700080009, -, UNKNOWN",
        "00000000-0000-0000-0000-000000000000, 00000000-0000-0000-0000-000000000000, -, UNKNOWN",
        "ffffffff-ffff-ffff-ffff-ffffffffffff, FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF, -, UNKNOWN",
        // provider ID
        "-, -, bamel://m1, PROVEN",
        "-, -, bamel://m2, MISMATCH",
        "-, -, aws:///eu-west-1a/i-0123, UNKNOWN",
        UUID + ", " + UUID + ", bamel://m2, MISMATCH",
        UUID + ", 4c4c4544-0042-3510-8053-b4c04f4e3233, bamel://m1, MISMATCH",
        UUID + ", -, bamel://m1, PROVEN",
        UUID + ", " + UUID + ", aws:///eu-west-1a/i-0123, PROVEN",
      })
  void decides(String stored, String reported, String providerId, Outcome expected) {
    KubeNode node =
        new KubeNode("cp-1", true, false, Map.of(), Map.of(), Map.of(), reported, providerId);
    KubeIdentity.Verdict verdict = KubeIdentity.check("m1", stored, node);
    assertThat(verdict.outcome()).isEqualTo(expected);
    assertThat(verdict.proven()).isEqualTo(expected == Outcome.PROVEN);
    assertThat(verdict.detail()).isNotBlank();
  }

  @ParameterizedTest(name = "named={0} lastSeen={1} -> {2}")
  @CsvSource(
      nullValues = "-",
      value = {
        // never seen in Kubernetes: not joined yet, as far as anyone knows
        "node-0001, -, ABSENT",
        // the node it was seen as is gone: it left Kubernetes
        "node-0001, node-0001, ABSENT",
        // the inventory names another node, which the cache does not hold: a retarget (or a
        // rename) the cache has not caught up with, which says nothing about the machine
        "cp-1, node-0001, UNKNOWN",
      })
  void aNodeTheCacheDoesNotHold(String named, String lastSeen, String expected) {
    KubeIdentity.Verdict verdict = KubeIdentity.absent(named, lastSeen);
    if (expected.equals("ABSENT")) {
      assertThat(verdict).isNull();
    } else {
      assertThat(verdict.outcome()).isEqualTo(Outcome.valueOf(expected));
      assertThat(verdict.proven()).isFalse();
      assertThat(verdict.detail()).contains(named).contains(lastSeen);
    }
  }

  @ParameterizedTest
  @CsvSource({
    UUID + ", " + SWAPPED,
    "00112233-4455-6677-8899-aabbccddeeff, 33221100-5544-7766-8899-aabbccddeeff",
  })
  void theByteSwapIsItsOwnInverse(String uuid, String swapped) {
    assertThat(SystemUuid.byteSwapped(uuid)).isEqualTo(swapped);
    assertThat(SystemUuid.byteSwapped(swapped)).isEqualTo(uuid);
  }
}
