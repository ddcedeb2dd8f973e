package io.rubinbft.net.shm;

import static io.rubinbft.net.shm.QueuePairFileDescriptor.CONNECTION_STATE_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.MAGIC;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.MAGIC_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.MAX_PRIVATE_DATA;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.MAX_QUEUE_DEPTH;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.MAX_REASON_BYTES;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.OWNER_KEY_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.OWNER_PID_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.OWNER_START_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.PEER_KEY_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.PEER_QP_FILE_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.PRIVATE_DATA_LENGTH_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.PRIVATE_DATA_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.QUEUE_PAIR_STATE_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.REASON_LENGTH_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.REASON_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVE_DEPTH_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.VERSION;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.VERSION_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Flyweight over the header of one queue pair side's file (layout in {@link
 * QueuePairFileDescriptor}); its receive ring is read through {@link ReceiveRing}.
 */
final class QueuePairFile {

  private final MemorySegment segment;

  QueuePairFile(MemorySegment segment) {
    this.segment = segment;
  }

  MemorySegment segment() {
    return segment;
  }

  /** Writes a fresh header into a zeroed file of {@link QueuePairFileDescriptor#fileBytes}. */
  static QueuePairFile initialize(MemorySegment segment, Owner owner, int receiveDepth) {
    QueuePairFile file = new QueuePairFile(segment);
    segment.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
    segment.set(ValueLayout.JAVA_INT, RECEIVE_DEPTH_OFFSET, receiveDepth);
    segment.set(ValueLayout.JAVA_LONG, OWNER_KEY_OFFSET, owner.deviceKey());
    segment.set(ValueLayout.JAVA_LONG, OWNER_PID_OFFSET, owner.pid());
    segment.set(ValueLayout.JAVA_LONG, OWNER_START_OFFSET, owner.startMillis());
    file.publishSideState(SideState.OPEN);
    SharedWords.setRelease(segment, MAGIC_OFFSET, MAGIC);
    return file;
  }

  /** Why a peer's file cannot be used, checked before anything else is read from it. */
  Optional<String> invalidReason() {
    if (segment.byteSize() < QueuePairFileDescriptor.RECEIVE_SLOTS_OFFSET) {
      return Optional.of(
          "queue pair file is " + segment.byteSize() + " bytes, shorter than a header");
    }
    if (SharedWords.getAcquire(segment, MAGIC_OFFSET) != MAGIC) {
      return Optional.of("queue pair file has no valid magic");
    }
    int version = segment.get(ValueLayout.JAVA_INT, VERSION_OFFSET);
    if (version != VERSION) {
      return Optional.of("queue pair file version is " + version + " but expected " + VERSION);
    }
    if (receiveDepth() < 1 || receiveDepth() > MAX_QUEUE_DEPTH) {
      return Optional.of(
          "receive depth is " + receiveDepth() + " but must be in 1.." + MAX_QUEUE_DEPTH);
    }
    long expected = QueuePairFileDescriptor.fileBytes(receiveDepth());
    if (segment.byteSize() < expected) {
      return Optional.of(
          "queue pair file is " + segment.byteSize() + " bytes but its depth needs " + expected);
    }
    int privateDataLength = segment.get(ValueLayout.JAVA_INT, PRIVATE_DATA_LENGTH_OFFSET);
    if (privateDataLength < 0 || privateDataLength > MAX_PRIVATE_DATA) {
      return Optional.of(
          "private data length is " + privateDataLength + " but must be in 0.." + MAX_PRIVATE_DATA);
    }
    return Optional.empty();
  }

  int receiveDepth() {
    return segment.get(ValueLayout.JAVA_INT, RECEIVE_DEPTH_OFFSET);
  }

  Owner owner() {
    return new Owner(
        segment.get(ValueLayout.JAVA_LONG, OWNER_KEY_OFFSET),
        segment.get(ValueLayout.JAVA_LONG, OWNER_PID_OFFSET),
        segment.get(ValueLayout.JAVA_LONG, OWNER_START_OFFSET));
  }

  byte[] privateData() {
    // Clamped again: the peer can rewrite the length after the file was validated.
    int length =
        Math.clamp(
            segment.get(ValueLayout.JAVA_INT, PRIVATE_DATA_LENGTH_OFFSET), 0, MAX_PRIVATE_DATA);
    return segment.asSlice(PRIVATE_DATA_OFFSET, length).toArray(ValueLayout.JAVA_BYTE);
  }

  void writePrivateData(byte[] data) {
    MemorySegment.copy(data, 0, segment, ValueLayout.JAVA_BYTE, PRIVATE_DATA_OFFSET, data.length);
    segment.set(ValueLayout.JAVA_INT, PRIVATE_DATA_LENGTH_OFFSET, data.length);
  }

  long peerDeviceKey() {
    return segment.get(ValueLayout.JAVA_LONG, PEER_KEY_OFFSET);
  }

  int peerFileNumber() {
    return segment.get(ValueLayout.JAVA_INT, PEER_QP_FILE_OFFSET);
  }

  /** Names the acceptor's side in the connector's file; published by the ACCEPTED CAS after it. */
  void writePeer(long deviceKey, int fileNumber) {
    segment.set(ValueLayout.JAVA_LONG, PEER_KEY_OFFSET, deviceKey);
    segment.set(ValueLayout.JAVA_INT, PEER_QP_FILE_OFFSET, fileNumber);
  }

  @Nullable ConnectionState connectionState() {
    return ConnectionState.of(SharedWords.getAcquire(segment, CONNECTION_STATE_OFFSET));
  }

  void publishConnectionState(ConnectionState state) {
    SharedWords.setRelease(segment, CONNECTION_STATE_OFFSET, state.code());
  }

  boolean compareAndSetConnectionState(ConnectionState expected, ConnectionState next) {
    return SharedWords.compareAndSet(
        segment, CONNECTION_STATE_OFFSET, expected.code(), next.code());
  }

  @Nullable SideState sideState() {
    return SideState.of(SharedWords.getAcquire(segment, QUEUE_PAIR_STATE_OFFSET));
  }

  void publishSideState(SideState state) {
    SharedWords.setRelease(segment, QUEUE_PAIR_STATE_OFFSET, state.code());
  }

  String reason() {
    int length =
        Math.clamp(segment.get(ValueLayout.JAVA_INT, REASON_LENGTH_OFFSET), 0, MAX_REASON_BYTES);
    return new String(
        segment.asSlice(REASON_OFFSET, length).toArray(ValueLayout.JAVA_BYTE),
        StandardCharsets.UTF_8);
  }

  /** Writes {@code text}, cut to what fits; published by the state word written after it. */
  void writeReason(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    int length = Math.min(bytes.length, MAX_REASON_BYTES);
    MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, REASON_OFFSET, length);
    segment.set(ValueLayout.JAVA_INT, REASON_LENGTH_OFFSET, length);
  }
}
