package io.bamel.power.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.Test;

class KeyShareSocketFactoryTest {

  @Test
  void socketsOfferTheJdkGroupsUntilOneShareIsLearntThenTheX25519FamilyAlone() throws Exception {
    SSLSocketFactory jdk = SSLContext.getDefault().getSocketFactory();
    String[] defaults = ((SSLSocket) jdk.createSocket()).getSSLParameters().getNamedGroups();
    assertThat(defaults).contains("x25519", "secp256r1");
    KeyShareGroups groups = new KeyShareGroups();
    KeyShareSocketFactory factory = new KeyShareSocketFactory(jdk, groups);

    assertThat(namedGroups(factory.createSocket())).containsExactly(defaults);

    groups.completed("TLSv1.3");
    assertThat(namedGroups(factory.createSocket())).containsExactly("x25519", "x448");
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket plain = new Socket(InetAddress.getLoopbackAddress(), listening.getLocalPort())) {
      Socket layered = factory.createSocket(plain, "bmc.example", listening.getLocalPort(), true);
      assertThat(namedGroups(layered)).containsExactly("x25519", "x448");
    }

    groups.refused();
    assertThat(namedGroups(factory.createSocket())).containsExactly(defaults);
  }

  private static String[] namedGroups(Socket socket) throws Exception {
    try (socket) {
      return ((SSLSocket) socket).getSSLParameters().getNamedGroups();
    }
  }
}
