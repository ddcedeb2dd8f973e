package io.rubinbft.ledger.wal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The consensus write-ahead log: opaque records with consecutive indexes, in append-only segment
 * files (record format in {@link WalRecordCodec}). bft-core defines what a record means.
 *
 * <p><b>Durability.</b> {@link #append} hands the record to the operating system and returns: the
 * record survives a crash of this process (kill -9) but not of the machine. {@link #sync} forces
 * every appended record to disk (fdatasync); only records appended before a {@code sync} that
 * returned are durable. The caller decides when to sync: typically once per batch of records,
 * before sending the messages that depend on them. Creating and deleting segment files also syncs
 * the directory, and a full segment is forced before the next one is started.
 *
 * <p><b>Recovery.</b> Opening checks every record. A partially written last record (what a crash
 * during an append leaves) is cut off and reported by {@link #tornTail()}; any other bad record
 * fails the open with a {@link WalCorruptionException} naming file and offset.
 *
 * <p>Thread-safe; one process at a time (a lock file guards the directory).
 */
public final class Wal implements AutoCloseable {

  private static final String LOCK_FILE = "lock";

  private final WalConfig config;
  private final FileChannel lockChannel;

  @GuardedBy("this")
  private final TreeMap<Long, Path> sealed = new TreeMap<>();

  private final Optional<TornTail> tornTail;

  @GuardedBy("this")
  private WalSegment active;

  @GuardedBy("this")
  private @Nullable UncheckedIOException failure;

  private Wal(WalConfig config, FileChannel lockChannel, WalRecovery.Result recovered)
      throws IOException {
    this.config = config;
    this.lockChannel = lockChannel;
    this.tornTail = recovered.tornTail();
    List<WalRecovery.Segment> segments = recovered.segments();
    if (segments.isEmpty()) {
      active = WalSegment.create(config.directory(), 0);
      syncDirectory();
      return;
    }
    for (WalRecovery.Segment segment : segments.subList(0, segments.size() - 1)) {
      sealed.put(segment.firstIndex(), segment.file());
    }
    WalRecovery.Segment last = segments.getLast();
    active =
        WalSegment.reopen(
            last.file(), last.firstIndex(), recovered.lastSegmentBytes(), recovered.nextIndex());
  }

  /**
   * Opens or creates the WAL in {@code config.directory()}.
   *
   * @throws WalCorruptionException if a record other than a torn last one fails its checks
   * @throws IllegalStateException if another process has the WAL open
   */
  public static Wal open(WalConfig config) {
    Path directory = config.directory();
    FileChannel lockChannel = null;
    try {
      Files.createDirectories(directory);
      lockChannel =
          FileChannel.open(
              directory.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      if (!lock(lockChannel)) {
        throw new IllegalStateException("the WAL in " + directory + " is open in another process");
      }
      return new Wal(config, lockChannel, WalRecovery.recover(directory, config.maxRecordBytes()));
    } catch (IOException | RuntimeException e) {
      closeQuietly(lockChannel, e);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot open the WAL in " + directory, io);
      }
      throw (RuntimeException) e;
    }
  }

  /** What opening cut off the end of the last segment, if anything. */
  public Optional<TornTail> tornTail() {
    return tornTail;
  }

  /** The index of the oldest record kept. */
  public synchronized long firstIndex() {
    return sealed.isEmpty() ? active.firstIndex() : sealed.firstKey();
  }

  /** The index the next appended record gets. */
  public synchronized long nextIndex() {
    return active.nextIndex();
  }

  /**
   * Appends a record and returns its index; durable only after {@link #sync}.
   *
   * @throws IllegalArgumentException if the payload is larger than the configured limit
   */
  public synchronized long append(byte[] payload) {
    if (payload.length > config.maxRecordBytes()) {
      throw new IllegalArgumentException(
          "WAL record of "
              + payload.length
              + " bytes is larger than the limit of "
              + config.maxRecordBytes());
    }
    ensureUsable();
    try {
      if (!active.fits(payload.length, config.segmentBytes()) && !active.isEmpty()) {
        startNextSegment();
      }
      return active.append(payload);
    } catch (IOException e) {
      throw fail("append to " + active.file() + " failed", e);
    }
  }

  /** Forces every record appended so far to disk. */
  public synchronized void sync() {
    ensureUsable();
    try {
      active.force();
    } catch (IOException e) {
      throw fail("sync of " + active.file() + " failed", e);
    }
  }

  /**
   * Drops the segments whose records all have indexes below {@code index} (a stable checkpoint):
   * whole files, so some older records may stay. The segment being appended to always stays.
   */
  public synchronized void truncateBefore(long index) {
    boolean deleted = false;
    while (!sealed.isEmpty()) {
      Long following = sealed.higherKey(sealed.firstKey());
      long nextFirst = following != null ? following : active.firstIndex();
      if (nextFirst > index) {
        break;
      }
      Path file = sealed.pollFirstEntry().getValue();
      try {
        Files.delete(file);
      } catch (IOException e) {
        throw new UncheckedIOException("deleting WAL segment " + file + " failed", e);
      }
      deleted = true;
    }
    if (deleted) {
      syncDirectory();
    }
  }

  /**
   * Reads every kept record with index {@code from} or higher, in order, checking each again.
   *
   * @throws WalCorruptionException if a record fails its checks
   */
  public synchronized void replay(long from, WalRecordHandler handler) {
    List<Path> files = new ArrayList<>();
    Long floor = sealed.floorKey(from);
    sealed
        .tailMap(floor != null ? floor : Long.MIN_VALUE)
        .forEach((first, file) -> files.add(file));
    files.add(active.file());
    for (Path file : files) {
      replaySegment(file, from, handler);
    }
  }

  @Override
  public synchronized void close() {
    try {
      active.close();
      lockChannel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the WAL in " + config.directory() + " failed", e);
    }
  }

  /**
   * After a failed write or sync the file's state is unknown (a partial record, or pages the OS
   * dropped): the WAL refuses further appends; reopening recovers what is on disk.
   */
  @GuardedBy("this")
  private UncheckedIOException fail(String what, IOException cause) {
    failure = new UncheckedIOException(what, cause);
    return failure;
  }

  @GuardedBy("this")
  private void ensureUsable() {
    if (failure != null) {
      throw new IllegalStateException(
          "the WAL in " + config.directory() + " failed earlier; reopen it to recover", failure);
    }
  }

  private void replaySegment(Path file, long from, WalRecordHandler handler) {
    long first = WalSegment.firstIndex(file).orElseThrow();
    try (WalSegmentReader reader = new WalSegmentReader(file, first, config.maxRecordBytes())) {
      WalSegmentReader.Step step = reader.next();
      while (step instanceof WalSegmentReader.Entry entry) {
        if (entry.index() >= from) {
          handler.onRecord(entry.index(), entry.payload());
        }
        step = reader.next();
      }
      if (step instanceof WalSegmentReader.Bad bad) {
        throw new WalCorruptionException(file, bad.offset(), bad.problem());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading WAL segment " + file + " failed", e);
    }
  }

  @GuardedBy("this")
  private void startNextSegment() throws IOException {
    active.force();
    active.close();
    sealed.put(active.firstIndex(), active.file());
    active = WalSegment.create(config.directory(), active.nextIndex());
    syncDirectory();
  }

  private void syncDirectory() {
    try (FileChannel directory = FileChannel.open(config.directory(), StandardOpenOption.READ)) {
      directory.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "sync of the WAL directory " + config.directory() + " failed", e);
    }
  }

  /** True when this process now holds the directory's lock. */
  private static boolean lock(FileChannel lockChannel) throws IOException {
    try {
      return lockChannel.tryLock() != null;
    } catch (OverlappingFileLockException e) {
      return false; // this very process has the WAL open already
    }
  }

  private static void closeQuietly(@Nullable FileChannel channel, Exception failure) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
