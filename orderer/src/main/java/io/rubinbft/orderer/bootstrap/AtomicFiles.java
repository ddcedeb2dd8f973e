package io.rubinbft.orderer.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Whole-file writes that a crash cannot leave half done: a temporary file moved into place. */
public final class AtomicFiles {

  private AtomicFiles() {}

  public static void write(Path file, byte[] content) {
    Path temporary = file.resolveSibling(file.getFileName() + ".partial");
    try {
      Files.createDirectories(file.getParent());
      Files.write(temporary, content);
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
