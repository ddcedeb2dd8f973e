package io.rubinbft.orderer.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Whole folder trees. */
public final class FileTrees {

  private FileTrees() {}

  /**
   * Deletes {@code root} and everything below it, deepest first; nothing when it does not exist.
   *
   * @throws UncheckedIOException naming {@code root} when a part cannot be deleted
   */
  public static void delete(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
