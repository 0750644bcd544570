package io.bamel.power.ipmi.rmcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The pure packet codec on byte vectors: published captures, ipmi_sim's answers, the spec. */
class RmcpCodecTest {

  @Test
  void getChannelAuthenticationCapabilitiesIsTheRequestFreeipmiSends() {
    // freeipmi's --debug dump of this request: rs_addr 20h, net_fn 6, checksum1 C8h, rq_addr 81h,
    // rq_seq 3, cmd 38h, channel Eh with the v2.0 bit, privilege 4; IPMI message length 9
    IpmiCommand caps = IpmiCommand.channelAuthenticationCapabilities(4);
    byte[] message = IpmiMessage.request(caps.netFn(), caps.command(), 3, caps.data());
    assertThat(Bytes.hex(message)).isEqualTo("2018c8810c388e04a9");
    assertThat(Bytes.hex(RmcpPacket.v15(message)))
        .isEqualTo("0600ff07" + "00" + "00000000" + "00000000" + "09" + "2018c8810c388e04a9");
  }

  @Test
  void aResponseWithABadChecksumIsDropped() {
    // Get Chassis Status answer: rq 81h, netFn 01h (response), rs 20h, seq 5, cmd 01h, cc 0
    byte[] good = Bytes.unhex("8104 7b 20 14 01 00 01 10 40 00 8a");
    good[good.length - 1] = IpmiMessage.checksum(good, 3, good.length - 1);
    IpmiMessage.Response r = IpmiMessage.response(good).orElseThrow();
    assertThat(r.sequence()).isEqualTo(5);
    assertThat(r.netFn()).isEqualTo(1);
    assertThat(IpmiReplies.powerOn(r.data())).isTrue();
    byte[] bad = good.clone();
    bad[7] ^= 1;
    assertThat(IpmiMessage.response(bad)).isEmpty();
  }

  @Test
  void ipmiSimsBareOpenSessionRefusalIsReadAsACipherSuiteRefusal() {
    // captured: ipmi_sim refusing RAKP-HMAC-SHA256 (suite 17) with only tag 07h and status 04h
    byte[] datagram = Bytes.unhex("0600ff070611000000000000000002000704");
    RmcpPacket packet = RmcpPacket.decode(datagram, datagram.length, null).orElseThrow();
    assertThat(packet.payloadType()).isEqualTo(RmcpPacket.OPEN_SESSION_RESPONSE);
    Rakp.OpenSessionResponse response = Rakp.openSessionResponse(packet.payload()).orElseThrow();
    assertThat(response.tag()).isEqualTo(7);
    assertThat(RmcpStatus.kind(response.status())).isEqualTo(RmcpStatus.Kind.CIPHER_SUITE);
    assertThat(RmcpStatus.describe(response.status()))
        .isEqualTo("invalid authentication algorithm (0x04)");
  }

  @Test
  void openSessionRequestCarriesTheSuitesThreeAlgorithmPayloads() {
    byte[] p = Rakp.openSessionRequest(0x2a, 4, 0xa0a1a2a3, CipherSuite.of(17).orElseThrow());
    assertThat(Bytes.hex(p))
        .isEqualTo(
            "2a040000"
                + "a3a2a1a0"
                + "0000000803000000" // authentication: RAKP-HMAC-SHA256
                + "0100000804000000" // integrity: HMAC-SHA256-128
                + "0200000801000000"); // confidentiality: AES-CBC-128
  }

  @Test
  void aesCbcPadsWithCountingBytesAndItsLength() throws Exception {
    byte[] key = Bytes.unhex("000102030405060708090a0b0c0d0e0f");
    byte[] iv = Bytes.unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    byte[] plain = Bytes.unhex("20180c8103010d");
    byte[] sealed = RmcpPacket.encrypt(key, iv, plain);
    assertThat(sealed).hasSize(32);
    assertThat(Arrays.copyOf(sealed, 16)).isEqualTo(iv);
    javax.crypto.Cipher aes = javax.crypto.Cipher.getInstance("AES/CBC/NoPadding");
    aes.init(
        javax.crypto.Cipher.DECRYPT_MODE,
        new javax.crypto.spec.SecretKeySpec(key, "AES"),
        new javax.crypto.spec.IvParameterSpec(iv));
    assertThat(Bytes.hex(aes.doFinal(sealed, 16, 16)))
        .isEqualTo("20180c8103010d" + "0102030405060708" + "08");
    assertThat(RmcpPacket.decrypt(key, sealed)).hasValue(plain);
    sealed[31] ^= 1; // garbles the pad
    assertThat(RmcpPacket.decrypt(key, sealed)).isEmpty();
  }

  @Test
  void authenticatedPacketsPadTheIntegrityDataToFourBytesAndRefuseATamperedByte() {
    SessionKeys keys =
        Rakp.keys(
            CipherSuite.of(3).orElseThrow(),
            Bytes.unhex("00112233445566778899aabbccddeeff00112233"));
    for (int length = 1; length <= 8; length++) {
      byte[] payload = new byte[length];
      Arrays.fill(payload, (byte) 0x5a);
      byte[] p = RmcpPacket.v20(RmcpPacket.IPMI, 0x01020304, 9, payload, keys, new byte[16]);
      int integrityData = p.length - 4 - 12; // auth type to next header
      assertThat(integrityData % 4).as("length %d", length).isZero();
      assertThat(p[p.length - 13]).isEqualTo((byte) 0x07);
      RmcpPacket back = RmcpPacket.decode(p, p.length, keys).orElseThrow();
      assertThat(back.payload()).isEqualTo(payload);
      assertThat(back.sequence()).isEqualTo(9);
      byte[] tampered = p.clone();
      tampered[20] ^= 1;
      assertThat(RmcpPacket.decode(tampered, tampered.length, keys)).isEmpty();
    }
  }

  @Test
  void keysAreHmacsOfTheSessionIntegrityKeyOverConstants() {
    byte[] sik = Bytes.unhex("0102030405060708090a0b0c0d0e0f1011121314");
    SessionKeys keys = Rakp.keys(CipherSuite.of(3).orElseThrow(), sik);
    byte[] ones = new byte[20];
    Arrays.fill(ones, (byte) 1);
    assertThat(keys.k1()).isEqualTo(Bytes.hmac("HmacSHA1", sik, ones));
    SessionKeys sha256 = Rakp.keys(CipherSuite.of(17).orElseThrow(), sik);
    assertThat(sha256.k1()).hasSize(32).isEqualTo(Bytes.hmac("HmacSHA256", sik, ones));
    assertThat(sha256.aesKey()).hasSize(16);
  }

  @Test
  void theSequenceWindowRefusesZeroRepeatsAndStalePackets() {
    SequenceWindow window = new SequenceWindow();
    assertThat(window.accept(0)).isFalse();
    assertThat(window.accept(5)).isTrue();
    assertThat(window.accept(5)).as("a replay").isFalse();
    assertThat(window.accept(7)).isTrue();
    assertThat(window.accept(6)).as("late but new").isTrue();
    assertThat(window.accept(6)).isFalse();
    assertThat(window.accept(100)).isTrue();
    assertThat(window.accept(100 - SequenceWindow.WIDTH)).as("too old").isFalse();
    assertThat(window.accept(99)).isTrue();
    SequenceWindow wrapping = new SequenceWindow();
    assertThat(wrapping.accept(-2)).isTrue(); // 0xfffffffe
    assertThat(wrapping.accept(-1)).isTrue();
    assertThat(wrapping.accept(1)).as("on past 2^32, 0 skipped").isTrue();
    assertThat(wrapping.accept(-1)).isFalse();
  }

  @Test
  void systemGuidIsPrintedAsSmbiosOrdersIt() {
    // ipmi_sim's configured guid a123456789abcdefa123456789abcdef, as ipmitool mc guid prints it
    byte[] data = Bytes.unhex("a123456789abcdefa123456789abcdef");
    assertThat(IpmiReplies.systemGuid(data).toString())
        .isEqualTo("efcdab89-6745-23a1-efcd-ab89674523a1");
  }

  @Test
  void dcmiPowerReadingNeedsTheGroupIdAndAnActiveReading() {
    byte[] active =
        Bytes.unhex("dc" + "c800" + "6400" + "2c01" + "9600" + "00000000" + "e8030000" + "40");
    assertThat(IpmiReplies.watts(active)).hasValue(200);
    byte[] inactive = active.clone();
    inactive[17] = 0;
    assertThat(IpmiReplies.watts(inactive)).isEmpty();
  }
}
