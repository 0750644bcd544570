package io.bamel.power.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes credential directories laid out as a mounted Secret. */
public final class CredentialDirs {

  private CredentialDirs() {}

  /** Writes {@code root/name/username} and {@code root/name/password}; returns the directory. */
  public static Path write(Path root, String name, String username, String password)
      throws IOException {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(dir.resolve("username"), username + "\n");
    Files.writeString(dir.resolve("password"), password + "\n");
    return dir;
  }
}
