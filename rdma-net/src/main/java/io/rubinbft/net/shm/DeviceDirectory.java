package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The files of a shared-memory device: where they live, how they are created and mapped. Every
 * method here makes system calls and runs only on connection setup and registration, never on the
 * data path. Files are created 0600 and directories 0700 ({@link ShmPermissions}).
 *
 * <pre>
 * root/
 *   setup.lock                  serializes listen/port choice between processes
 *   listen-HOST-PORT            a listener's endpoint (ListenerFileDescriptor)
 *   dev-KEY/alive               locked by the device while it lives (liveness)
 *   dev-KEY/bell                whether the device sleeps (DoorbellWord)
 *   dev-KEY/bell.sock           where peers ring it awake (Doorbell, PeerDoorbell)
 *   dev-KEY/mr-ID               registered memory region ID
 *   dev-KEY/qp-N                one side of queue pair N (QueuePairFileDescriptor)
 * </pre>
 */
final class DeviceDirectory {

  /** Writing zeros up front makes a full tmpfs fail here with ENOSPC, not later with SIGBUS. */
  private static final int ZERO_CHUNK = 1 << 20;

  /** Threads of one process exclude each other here; file locks exclude other processes. */
  private static final Object SETUP_MONITOR = new Object();

  private final Path root;

  DeviceDirectory(Path root) {
    this.root = root;
  }

  Path root() {
    return root;
  }

  Path deviceDir(long deviceKey) {
    return root.resolve("dev-" + Owner.keyText(deviceKey));
  }

  Path aliveLock(long deviceKey) {
    return deviceDir(deviceKey).resolve("alive");
  }

  Path doorbell(long deviceKey) {
    return deviceDir(deviceKey).resolve("bell");
  }

  Path doorbellSocket(long deviceKey) {
    return deviceDir(deviceKey).resolve("bell.sock");
  }

  Path region(long deviceKey, int regionId) {
    return deviceDir(deviceKey).resolve("mr-" + regionId);
  }

  Path queuePair(long deviceKey, int fileNumber) {
    return deviceDir(deviceKey).resolve("qp-" + fileNumber);
  }

  Path listener(String host, int port) {
    return root.resolve("listen-" + host + "-" + port);
  }

  void createDeviceDir(long deviceKey) throws VerbsException {
    try {
      Files.createDirectory(deviceDir(deviceKey), ShmPermissions.DIRECTORY);
    } catch (IOException e) {
      throw new VerbsException("cannot create shm device directory " + deviceDir(deviceKey), e);
    }
  }

  /**
   * Creates {@code path} with {@code bytes} zeroed bytes and maps it read-write into {@code arena}.
   */
  MemorySegment createMapped(Path path, long bytes, Arena arena) throws VerbsException {
    try (FileChannel channel =
        FileChannel.open(
            path,
            Set.of(
                StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
            ShmPermissions.FILE)) {
      ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK, Math.max(bytes, 1)));
      for (long position = 0; position < bytes; ) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - position));
        position += channel.write(zeros, position);
      }
      return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
    } catch (IOException e) {
      deleteQuietly(path);
      throw new VerbsException("cannot create " + bytes + " shared bytes at " + path, e);
    }
  }

  /** Maps an existing file whole; fails with a message naming the file when it is gone. */
  MemorySegment mapExisting(Path path, Arena arena) throws VerbsException {
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      return channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
    } catch (NoSuchFileException e) {
      throw new VerbsException(path + " does not exist (its owner closed it or never made it)", e);
    } catch (IOException e) {
      throw new VerbsException("cannot map " + path, e);
    }
  }

  /** Runs {@code action} while holding the directory's setup lock against other processes. */
  <T> T underSetupLock(SetupAction<T> action) throws VerbsException {
    synchronized (SETUP_MONITOR) {
      try (FileChannel channel =
              FileChannel.open(
                  root.resolve("setup.lock"),
                  Set.of(
                      StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                  ShmPermissions.FILE);
          FileLock _ = channel.lock()) {
        return action.run();
      } catch (IOException e) {
        if (e instanceof VerbsException verbsException) {
          throw verbsException;
        }
        throw new VerbsException("cannot take the setup lock in " + root, e);
      }
    }
  }

  static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // Best effort: a leftover file is swept with its dead device's directory later.
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(DeviceDirectory::deleteQuietly);
    } catch (IOException e) {
      // Best effort, as in deleteQuietly.
    }
  }

  /** Work done under the setup lock. */
  @FunctionalInterface
  interface SetupAction<T> {
    T run() throws VerbsException;
  }
}
