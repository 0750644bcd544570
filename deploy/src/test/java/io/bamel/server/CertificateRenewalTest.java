package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CertificateRenewalTest {

  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
  private static final Duration YEAR = Duration.ofDays(365);

  private static CertificateIssuer.Issued ca(Instant issued) {
    return CertificateIssuer.authority("test CA", issued, CertificateRenewal.CA_VALIDITY);
  }

  private static CertificateIssuer.Issued leaf(CertificateIssuer.Issued ca, Instant issued) {
    return CertificateIssuer.leaf(
        ca, "leaf", CertificateIssuer.Usage.CLIENT, issued, CertificateRenewal.LEAF_VALIDITY);
  }

  @Test
  void nothingFoundMakesEverything() {
    assertThat(CertificateRenewal.plan(null, false, null, null, NOW))
        .isEqualTo(new CertificateRenewal.Plan(true, true, true));
  }

  @Test
  void freshCertificatesAreKept() {
    CertificateIssuer.Issued ca = ca(NOW);
    CertificateRenewal.Plan plan =
        CertificateRenewal.plan(
            ca.certificate(), true, leaf(ca, NOW).certificate(), leaf(ca, NOW).certificate(), NOW);
    assertThat(plan.nothing()).isTrue();
  }

  @Test
  void aLeafNearItsExpiryIsMadeAnewAndItsCaKept() {
    CertificateIssuer.Issued ca = ca(NOW.minus(YEAR.multipliedBy(3)));
    // Issued 2 years and a day ago with 3 years of validity: less than a year left.
    CertificateIssuer.Issued old =
        leaf(ca, NOW.minus(YEAR.multipliedBy(2)).minus(Duration.ofDays(1)));
    CertificateIssuer.Issued young = leaf(ca, NOW.minus(YEAR));
    assertThat(
            CertificateRenewal.plan(
                ca.certificate(), true, old.certificate(), young.certificate(), NOW))
        .isEqualTo(new CertificateRenewal.Plan(false, true, false));
  }

  @Test
  void aLeafOfAnotherCaIsMadeAnew() {
    CertificateIssuer.Issued ca = ca(NOW);
    CertificateIssuer.Issued other = ca(NOW);
    assertThat(
            CertificateRenewal.plan(
                ca.certificate(),
                true,
                leaf(ca, NOW).certificate(),
                leaf(other, NOW).certificate(),
                NOW))
        .isEqualTo(new CertificateRenewal.Plan(false, false, true));
  }

  @Test
  void aCaWithLessThanALeafsValidityLeftOrWithoutItsKeyIsMadeAnewWithBothLeaves() {
    CertificateIssuer.Issued old = ca(NOW.minus(YEAR.multipliedBy(8)));
    CertificateIssuer.Issued leaf = leaf(old, NOW);
    assertThat(
            CertificateRenewal.plan(
                old.certificate(), true, leaf.certificate(), leaf.certificate(), NOW))
        .isEqualTo(new CertificateRenewal.Plan(true, true, true));
    CertificateIssuer.Issued ca = ca(NOW);
    assertThat(
            CertificateRenewal.plan(
                ca.certificate(),
                false,
                leaf(ca, NOW).certificate(),
                leaf(ca, NOW).certificate(),
                NOW))
        .isEqualTo(new CertificateRenewal.Plan(true, true, true));
  }

  @Test
  void aLeafNeverOutlivesItsCa() {
    CertificateIssuer.Issued ca = ca(NOW.minus(YEAR.multipliedBy(9)));
    CertificateIssuer.Issued leaf = leaf(ca, NOW);
    assertThat(leaf.certificate().getNotAfter()).isEqualTo(ca.certificate().getNotAfter());
  }

  @Test
  void aCertificateNotYetValidIsNotValid() {
    CertificateIssuer.Issued ca = ca(NOW.plus(Duration.ofDays(2)));
    assertThat(CertificateRenewal.validFor(ca.certificate(), NOW, Duration.ZERO)).isFalse();
    assertThat(
            CertificateRenewal.validFor(
                ca.certificate(), NOW.plus(Duration.ofDays(3)), Duration.ZERO))
        .isTrue();
  }
}
