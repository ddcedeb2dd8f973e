package io.rubinbft.orderer.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Whole-file replacement that a crash cannot leave half done nor undo: the content goes to a
 * temporary file beside the target, which is synced, renamed over the target, and then the
 * directory is synced so the rename itself survives a power loss. After {@link #write} returns, the
 * file holds the new content across a crash; before, it holds the old content or the new, never a
 * mix. The one implementation for every file the node replaces whole.
 */
public final class AtomicFiles {

  private AtomicFiles() {}

  /**
   * Replaces {@code file} with {@code content} durably, creating its directory if needed.
   *
   * @throws UncheckedIOException naming the file when any step fails
   */
  public static void write(Path file, byte[] content) {
    // A file's absolute path has a parent: only a root has none.
    Path directory = Objects.requireNonNull(file.toAbsolutePath().getParent());
    Path temporary = file.resolveSibling(file.getFileName() + ".partial");
    try {
      Files.createDirectories(directory);
      try (FileChannel out =
          FileChannel.open(
              temporary,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        ByteBuffer remaining = ByteBuffer.wrap(content);
        while (remaining.hasRemaining()) {
          out.write(remaining);
        }
        out.force(true);
      }
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      syncDirectory(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Makes the directory's entries (a rename, a new file) durable: fsync on the directory. */
  private static void syncDirectory(Path directory) throws IOException {
    try (FileChannel entries = FileChannel.open(directory, StandardOpenOption.READ)) {
      entries.force(true);
    }
  }
}
