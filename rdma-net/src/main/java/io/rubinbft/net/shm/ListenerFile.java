package io.rubinbft.net.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * Flyweight over a listener's endpoint file {@code listen-HOST-PORT}: who listens, and an inbox of
 * connection requests that any number of connecting processes fill and the listener drains.
 *
 * <pre>
 *  0                   8         12        16
 *  +-------------------+---------+---------+
 *  | magic "RUBINSLS"  | version | backlog |                      0
 *  | owner device key  | owner pid         | owner start (ms)     16
 *  | state (LISTENING, CLOSED)                                    64
 *  | slot[backlog] x 64: state (FREE, WRITING, READY) 8 |         128
 *  |   connector device key 8 | connector queue pair file 8 |
 *  +-------------------------------------------------------+
 * </pre>
 *
 * A connector claims a FREE slot with a CAS to WRITING, fills it and publishes READY with a release
 * store; the listener reads READY slots and frees them. The file names a connector's queue pair
 * file; everything else about the request is in that file.
 */
final class ListenerFile {

  static final long MAGIC = 0x534c_534e_4942_5552L; // "RUBINSLS" little-endian
  static final int VERSION = 1;

  private static final long VERSION_OFFSET = 8;
  private static final long BACKLOG_OFFSET = 12;
  private static final long OWNER_KEY_OFFSET = 16;
  private static final long OWNER_PID_OFFSET = 24;
  private static final long OWNER_START_OFFSET = 32;
  private static final long STATE_OFFSET = 64;
  private static final long SLOTS_OFFSET = 128;
  private static final long SLOT_BYTES = 64;
  private static final long SLOT_CONNECTOR_KEY = 8;
  private static final long SLOT_CONNECTOR_FILE = 16;

  private static final long LISTENING = 1;
  private static final long CLOSED = 2;
  private static final long FREE = 0;
  private static final long WRITING = 1;
  private static final long READY = 2;

  private final MemorySegment segment;

  /** Read once: a connector could rewrite the word, and the slots must stay inside the file. */
  private final int backlog;

  ListenerFile(MemorySegment segment) {
    this.segment = segment;
    this.backlog =
        segment.byteSize() >= SLOTS_OFFSET ? segment.get(ValueLayout.JAVA_INT, BACKLOG_OFFSET) : 0;
  }

  static long fileBytes(int backlog) {
    return SLOTS_OFFSET + backlog * SLOT_BYTES;
  }

  static ListenerFile initialize(MemorySegment segment, Owner owner, int backlog) {
    segment.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
    segment.set(ValueLayout.JAVA_INT, BACKLOG_OFFSET, backlog);
    segment.set(ValueLayout.JAVA_LONG, OWNER_KEY_OFFSET, owner.deviceKey());
    segment.set(ValueLayout.JAVA_LONG, OWNER_PID_OFFSET, owner.pid());
    segment.set(ValueLayout.JAVA_LONG, OWNER_START_OFFSET, owner.startMillis());
    SharedWords.setRelease(segment, STATE_OFFSET, LISTENING);
    SharedWords.setRelease(segment, 0, MAGIC);
    return new ListenerFile(segment);
  }

  /** Why a file found at a listener's name cannot be used, checked before reading anything else. */
  Optional<String> invalidReason() {
    if (segment.byteSize() < SLOTS_OFFSET
        || SharedWords.getAcquire(segment, 0) != MAGIC
        || segment.get(ValueLayout.JAVA_INT, VERSION_OFFSET) != VERSION) {
      return Optional.of("it is no listener endpoint of this version");
    }
    if (backlog < 1
        || backlog > ShmOptions.MAX_LISTEN_BACKLOG
        || segment.byteSize() < fileBytes(backlog)) {
      return Optional.of("its backlog of " + backlog + " does not fit its size");
    }
    return Optional.empty();
  }

  Owner owner() {
    return new Owner(
        segment.get(ValueLayout.JAVA_LONG, OWNER_KEY_OFFSET),
        segment.get(ValueLayout.JAVA_LONG, OWNER_PID_OFFSET),
        segment.get(ValueLayout.JAVA_LONG, OWNER_START_OFFSET));
  }

  boolean isListening() {
    return SharedWords.getAcquire(segment, STATE_OFFSET) == LISTENING;
  }

  void markClosed() {
    SharedWords.setRelease(segment, STATE_OFFSET, CLOSED);
  }

  /** Leaves a request in a free slot; false when the backlog is full. */
  boolean offer(long connectorKey, int connectorFile) {
    for (int i = 0; i < backlog; i++) {
      long slot = SLOTS_OFFSET + i * SLOT_BYTES;
      if (SharedWords.compareAndSet(segment, slot, FREE, WRITING)) {
        segment.set(ValueLayout.JAVA_LONG, slot + SLOT_CONNECTOR_KEY, connectorKey);
        segment.set(ValueLayout.JAVA_LONG, slot + SLOT_CONNECTOR_FILE, connectorFile);
        SharedWords.setRelease(segment, slot, READY);
        return true;
      }
    }
    return false;
  }

  int backlog() {
    return backlog;
  }

  /** Hands the request waiting in {@code slot}, if any, to {@code sink} and frees the slot. */
  boolean take(int slot, RequestSink sink) {
    long offset = SLOTS_OFFSET + slot * SLOT_BYTES;
    if (SharedWords.getAcquire(segment, offset) != READY) {
      return false;
    }
    long key = segment.get(ValueLayout.JAVA_LONG, offset + SLOT_CONNECTOR_KEY);
    long file = segment.get(ValueLayout.JAVA_LONG, offset + SLOT_CONNECTOR_FILE);
    SharedWords.setRelease(segment, offset, FREE);
    return sink.accept(key, file);
  }

  /** Receives one drained request; returns whether it took it (false: dropped as invalid). */
  @FunctionalInterface
  interface RequestSink {
    boolean accept(long connectorKey, long connectorFile);
  }
}
