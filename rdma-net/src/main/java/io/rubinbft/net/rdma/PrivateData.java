package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The private data carried by connect and accept. The InfiniBand CM (and RoCE, which uses it)
 * delivers private data padded to the message's fixed size, so the sender's length goes first, in
 * one byte.
 */
final class PrivateData {

  /**
   * A connect request (IB CM REQ) carries 92 bytes of private data, of which rdma_cm's TCP port
   * space header takes 36; an accept (REP) carries more. Less the length byte.
   */
  static final int MAX_BYTES = 92 - 36 - 1;

  private static final long DATA =
      VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, "private_data");
  private static final long LENGTH =
      VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, "private_data_len");

  private PrivateData() {}

  /** Fills a connection parameter's private_data and private_data_len with {@code data}. */
  static void write(byte[] data, MemorySegment connParam, Arena arena) {
    if (data.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          "private data of " + data.length + " bytes exceeds the limit of " + MAX_BYTES);
    }
    MemorySegment bytes = arena.allocate(data.length + 1L);
    bytes.set(JAVA_BYTE, 0, (byte) data.length);
    MemorySegment.copy(data, 0, bytes, JAVA_BYTE, 1, data.length);
    connParam.set(ADDRESS, DATA, bytes);
    connParam.set(JAVA_BYTE, LENGTH, (byte) bytes.byteSize());
  }

  /** Copies the private data of a received connection parameter as it arrived, padding and all. */
  static byte[] copyReceived(MemorySegment connParam) {
    MemorySegment pointer = connParam.get(ADDRESS, DATA);
    int available = Byte.toUnsignedInt(connParam.get(JAVA_BYTE, LENGTH));
    if (pointer.equals(MemorySegment.NULL)) {
      return new byte[0];
    }
    return pointer.reinterpret(available).toArray(JAVA_BYTE);
  }

  /** The sender's bytes from received private data, checking its length byte. */
  static byte[] decode(byte[] received) throws VerbsException {
    if (received.length == 0) {
      return received;
    }
    int length = Byte.toUnsignedInt(received[0]);
    if (length > received.length - 1) {
      throw new VerbsException(
          "peer's private data claims "
              + length
              + " bytes but the message carries "
              + (received.length - 1));
    }
    return Arrays.copyOfRange(received, 1, 1 + length);
  }
}
