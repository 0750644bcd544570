package io.bamel.power.wol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.TerminalPowerException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MagicPacketTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"00:11:22:AA:bb:cc", "00-11-22-aa-bb-cc", "001122aabbcc", "0011.22aa.bbcc"})
  void buildsSixFfThenTheMacSixteenTimes(String mac) throws Exception {
    byte[] packet = MagicPacket.forMac(mac);
    assertThat(packet).hasSize(102);
    for (int i = 0; i < 6; i++) {
      assertThat(packet[i]).isEqualTo((byte) 0xFF);
    }
    byte[] expected = {0x00, 0x11, 0x22, (byte) 0xaa, (byte) 0xbb, (byte) 0xcc};
    for (int copy = 0; copy < 16; copy++) {
      for (int i = 0; i < 6; i++) {
        assertThat(packet[6 + copy * 6 + i]).isEqualTo(expected[i]);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "00:11:22:33:44", "zz:11:22:33:44:55", "00:11:22:33:44:55:66"})
  void rejectsWhatIsNotAMac(String mac) {
    assertThatThrownBy(() -> MagicPacket.forMac(mac)).isInstanceOf(TerminalPowerException.class);
  }
}
