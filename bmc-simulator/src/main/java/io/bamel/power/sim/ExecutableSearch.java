package io.bamel.power.sim;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/** Finds an executable by name on a search path ({@code PATH}), as a shell would. */
final class ExecutableSearch {

  private ExecutableSearch() {}

  /**
   * The first regular, executable file {@code name} in the directories of {@code searchPath}
   * (separated by {@link File#pathSeparator}; empty entries and a {@code null} path are skipped).
   */
  static Optional<Path> find(String name, String searchPath) {
    if (searchPath == null) {
      return Optional.empty();
    }
    for (String directory : searchPath.split(File.pathSeparator)) {
      if (directory.isEmpty()) {
        continue;
      }
      try {
        Path candidate = Path.of(directory, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException e) {
        // not a directory name: skip it
      }
    }
    return Optional.empty();
  }
}
