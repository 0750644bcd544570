package io.bamel.server;

import picocli.CommandLine;

/** The version shown by {@code bamel --version}: the jar's implementation version. */
public final class Version implements CommandLine.IVersionProvider {

  @Override
  public String[] getVersion() {
    String v = Main.class.getPackage().getImplementationVersion();
    return new String[] {"bamel " + (v == null ? "(development build)" : v)};
  }
}
