package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Tells whether the device at the other end of a file is still alive, even when its process was
 * killed without closing anything.
 *
 * <p>Each device holds an exclusive lock on its {@code dev-KEY/alive} file for its whole life; the
 * operating system drops the lock when the process dies, however it dies. Another process asks with
 * a non-blocking shared {@code tryLock}: refused means alive. Devices of this same process are
 * looked up in a process-wide set instead, because POSIX locks belong to the process: a second
 * channel on the file would see the lock as its own, and closing it would drop the owner's lock.
 * For the same reason the checking channels stay open until this device closes.
 */
final class Liveness implements AutoCloseable {

  private static final Set<Long> DEVICES_IN_THIS_PROCESS = ConcurrentHashMap.newKeySet();

  private final DeviceDirectory directory;
  private final Owner self;
  private final FileChannel aliveChannel;
  private final FileLock aliveLock;
  private final Long2ObjectHashMap<FileChannel> peerChannels = new Long2ObjectHashMap<>();

  private Liveness(DeviceDirectory directory, Owner self, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.self = self;
    this.aliveChannel = channel;
    this.aliveLock = lock;
  }

  /** Marks the device {@code self} alive until {@link #close()}. */
  static Liveness start(DeviceDirectory directory, Owner self) throws VerbsException {
    Path path = directory.aliveLock(self.deviceKey());
    try {
      FileChannel channel =
          FileChannel.open(
              path,
              Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
              ShmPermissions.FILE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        throw new VerbsException("device key " + self.keyText() + " is already in use at " + path);
      }
      DEVICES_IN_THIS_PROCESS.add(self.deviceKey());
      return new Liveness(directory, self, channel, lock);
    } catch (IOException e) {
      if (e instanceof VerbsException verbsException) {
        throw verbsException;
      }
      throw new VerbsException("cannot lock " + path, e);
    }
  }

  Owner self() {
    return self;
  }

  /** Whether {@code owner}'s device still runs; one system call when it is in another process. */
  boolean isAlive(Owner owner) {
    if (owner.sameProcessAs(self)) {
      return DEVICES_IN_THIS_PROCESS.contains(owner.deviceKey());
    }
    try {
      FileChannel channel = peerChannels.get(owner.deviceKey());
      if (channel == null) {
        channel = FileChannel.open(directory.aliveLock(owner.deviceKey()), StandardOpenOption.READ);
        peerChannels.put(owner.deviceKey(), channel);
      }
      FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
      if (probe == null) {
        return true;
      }
      probe.release();
      return false;
    } catch (NoSuchFileException e) {
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      throw new IllegalStateException("cannot probe the liveness of device " + owner, e);
    }
  }

  /** Deletes the directories of devices whose processes died without cleaning up. */
  void sweepDeadDevices() {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(directory.root(), "dev-*")) {
      for (Path dir : dirs) {
        if (!dir.equals(directory.deviceDir(self.deviceKey())) && isDeadDeviceDir(dir)) {
          DeviceDirectory.deleteTree(dir);
        }
      }
    } catch (IOException e) {
      // Best effort: a dead device's files only take space until the next sweep.
    }
  }

  private static boolean isDeadDeviceDir(Path dir) {
    Path alive = dir.resolve("alive");
    String keyHex = dir.getFileName().toString().substring("dev-".length());
    if (keyHex.length() != 16 || !keyHex.matches("[0-9a-f]+")) {
      return false;
    }
    if (DEVICES_IN_THIS_PROCESS.contains(Long.parseUnsignedLong(keyHex, 16))) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(alive, StandardOpenOption.READ)) {
      FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
      if (probe == null) {
        return false;
      }
      probe.release();
      return true;
    } catch (NoSuchFileException e) {
      return true;
    } catch (IOException | OverlappingFileLockException e) {
      return false;
    }
  }

  @Override
  public void close() {
    DEVICES_IN_THIS_PROCESS.remove(self.deviceKey());
    for (FileChannel channel : peerChannels.values()) {
      closeQuietly(channel);
    }
    peerChannels.clear();
    try {
      aliveLock.release();
    } catch (IOException e) {
      // The channel closes below, which releases the lock anyway.
    }
    closeQuietly(aliveChannel);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // Closing only releases resources; nothing to recover.
    }
  }
}
