package io.bamel.power.tls;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeyShareGroupsTest {

  private static final String[] JDK_DEFAULTS = {
    "x25519", "secp256r1", "secp384r1", "secp521r1", "x448", "ffdhe2048", "ffdhe3072"
  };

  @Test
  void everyConfiguredGroupIsOfferedUntilATls13HandshakeCompleted() {
    KeyShareGroups groups = new KeyShareGroups();
    assertThat(groups.groupsFor(JDK_DEFAULTS)).isNull();

    groups.completed("TLSv1.2");
    assertThat(groups.offer()).isEqualTo(KeyShareGroups.Offer.LEARNING);
    assertThat(groups.groupsFor(JDK_DEFAULTS)).isNull();

    groups.completed("TLSv1.3");
    assertThat(groups.offer()).isEqualTo(KeyShareGroups.Offer.ONE_SHARE);
    assertThat(groups.groupsFor(JDK_DEFAULTS)).containsExactly("x25519", "x448");
  }

  @Test
  void aRefusalOfferingOneShareRevertsToEveryGroupOnceAndForGood() {
    KeyShareGroups groups = new KeyShareGroups();
    assertThat(groups.refused()).isFalse(); // a failure while learning is not about the groups

    groups.completed("TLSv1.3");
    assertThat(groups.refused()).isTrue();
    assertThat(groups.offer()).isEqualTo(KeyShareGroups.Offer.ALL);
    assertThat(groups.groupsFor(JDK_DEFAULTS)).isNull();

    groups.completed("TLSv1.3"); // handshakes with every group complete: no second trial
    assertThat(groups.offer()).isEqualTo(KeyShareGroups.Offer.ALL);
    assertThat(groups.refused()).isFalse();
  }

  @Test
  void configuredGroupsOfOneKindOrOfAnUnknownKindAreKept() {
    assertThat(KeyShareGroups.oneShare(new String[] {"secp256r1", "x25519"}))
        .containsExactly("x25519");
    assertThat(KeyShareGroups.oneShare(new String[] {"x448", "secp384r1", "x25519"}))
        .containsExactly("x448", "x25519");
    // one share already
    assertThat(KeyShareGroups.oneShare(new String[] {"x25519"})).isNull();
    assertThat(KeyShareGroups.oneShare(new String[] {"secp256r1", "secp384r1"})).isNull();
    // a site's FIPS list without X25519, or a hybrid post-quantum group: never dropped
    assertThat(KeyShareGroups.oneShare(new String[] {"secp384r1", "ffdhe3072"})).isNull();
    assertThat(KeyShareGroups.oneShare(new String[] {"X25519MLKEM768", "x25519", "secp256r1"}))
        .isNull();
    assertThat(KeyShareGroups.oneShare(null)).isNull();
  }
}
