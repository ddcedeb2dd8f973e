package io.rubinbft.orderer.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A small tmpfs mounted on one node's data folder, so a test can fill that node's disk: shrinking
 * the mount to what is in use makes the next write fail with ENOSPC, growing it gives the space
 * back. Needs root (mount); {@link #mount} fails with a message saying so where it cannot.
 */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
public final class TmpfsDisk implements AutoCloseable {

  private final Path folder;
  private boolean mounted;

  private TmpfsDisk(Path folder) {
    this.folder = folder;
  }

  /**
   * Mounts a tmpfs of {@code bytes} on {@code folder} (created empty if missing).
   *
   * @throws AssertionError if it cannot be mounted: a disk-full test that cannot fill a disk must
   *     not pass
   */
  public static TmpfsDisk mount(Path folder, long bytes) throws IOException, InterruptedException {
    Files.createDirectories(folder);
    TmpfsDisk disk = new TmpfsDisk(folder);
    String output = run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", folder.toString());
    if (output != null) {
      throw new AssertionError(
          "cannot mount a tmpfs on "
              + folder
              + " for the disk-full fault (the fault suite must run as root, or with"
              + " CAP_SYS_ADMIN, to fill one node's disk): "
              + output);
    }
    disk.mounted = true;
    return disk;
  }

  /** Bytes in use on the mount. */
  public long used() throws IOException {
    var store = Files.getFileStore(folder);
    return store.getTotalSpace() - store.getUnallocatedSpace();
  }

  /** Changes the mount's size to {@code bytes} (what is stored stays). */
  public void resize(long bytes) throws IOException, InterruptedException {
    String output = run("mount", "-o", "remount,size=" + bytes, folder.toString());
    if (output != null) {
      throw new AssertionError("cannot resize the tmpfs on " + folder + ": " + output);
    }
  }

  /**
   * Shrinks the mount to the pages it holds, so the next write that needs one fails with ENOSPC;
   * returns the new size. Writers may take pages meanwhile (tmpfs refuses a size below its use): it
   * tries again on what is in use then.
   */
  public long shrinkToUsed() throws IOException, InterruptedException {
    String refused = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      long size = (used() + 4095) / 4096 * 4096;
      refused = run("mount", "-o", "remount,size=" + size, folder.toString());
      if (refused == null) {
        return size;
      }
    }
    throw new AssertionError("cannot shrink the tmpfs on " + folder + " to its use: " + refused);
  }

  public Path folder() {
    return folder;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (mounted) {
      String output = run("umount", "-l", folder.toString());
      if (output != null) {
        throw new IOException("cannot unmount the tmpfs on " + folder + ": " + output);
      }
      mounted = false;
    }
  }

  /** Runs {@code command}; null when it succeeded, else its exit status and output. */
  private static String run(String... command) throws IOException, InterruptedException {
    Process process;
    try {
      process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.toString();
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status = process.waitFor();
    return status == 0
        ? null
        : "`" + String.join(" ", command) + "` exited " + status + ": " + output.trim();
  }
}
