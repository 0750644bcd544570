package io.bamel.server;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The default name of a {@code bamel server} process: host name and process id. */
final class Instances {

  private Instances() {}

  static String defaultName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    return host + "-" + ProcessHandle.current().pid();
  }
}
