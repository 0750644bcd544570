package io.bamel.redfish.dmtf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * DMTF's published Redfish mockups and JSON schemas on the class path, unchanged.
 *
 * <p>Contract: {@link #list()} names every file this module carries, as paths relative to {@code
 * dmtf/} ({@code mockups/public-rackmount1/Systems/437XR1138R2/index.json}, {@code
 * json-schema/ComputerSystem.v1_27_0.json}); {@link #read} returns a file's bytes as published, or
 * empty when there is no such file. Nothing here parses or changes the data.
 */
public final class DmtfFiles {

  /** The mockups this module carries, by their DMTF folder names. */
  public static final List<String> MOCKUPS =
      List.of(
          "public-rackmount1",
          "public-tower",
          "public-bladed",
          "public-localstorage",
          "public-liquid-cooled-server");

  private static final String ROOT = "dmtf/";

  private DmtfFiles() {}

  /** Every file, as a path below {@code dmtf/}, in byte order. */
  public static List<String> list() {
    return read("files.txt")
        .map(b -> new String(b, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList())
        .orElseThrow(() -> new IllegalStateException("dmtf/files.txt is missing"));
  }

  /** The bytes of {@code path} (below {@code dmtf/}), or empty when it is not a file here. */
  public static Optional<byte[]> read(String path) {
    if (path.contains("..") || path.startsWith("/")) {
      return Optional.empty();
    }
    try (InputStream in = DmtfFiles.class.getClassLoader().getResourceAsStream(ROOT + path)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
