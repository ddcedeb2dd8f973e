package io.rubinbft.net.fragment;

import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A message larger than one frame, copied in whole when offered and sent fragment by fragment as
 * credit allows. One per channel: a second large message waits (back-pressure) until the first has
 * gone. The staging buffer grows in powers of two on demand, never beyond the message limit.
 */
public final class OutboundMessage {

  private static final int INITIAL_CAPACITY = 64 * 1024;

  private final int maxMessageBytes;
  private final UnsafeBuffer staged = new UnsafeBuffer(0, 0);
  private ByteBuffer storage = ByteBuffer.allocateDirect(0);
  private int length;
  private int sentOffset;
  private boolean busy;

  public OutboundMessage(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  /** Copies a message in; the previous one must have gone. */
  public void load(DirectBuffer source, int offset, int messageLength) {
    if (busy) {
      throw new IllegalStateException("a fragmented message is still being sent");
    }
    ensureCapacity(messageLength);
    staged.putBytes(0, source, offset, messageLength);
    length = messageLength;
    sentOffset = 0;
    busy = true;
  }

  /** Whether fragments are left to send. */
  public boolean busy() {
    return busy;
  }

  public int length() {
    return length;
  }

  /** Where the next fragment starts in the message. */
  public int sentOffset() {
    return sentOffset;
  }

  /** The next fragment's payload length when frames carry at most {@code maxPayload}. */
  public int nextChunk(int maxPayload) {
    return Math.min(maxPayload, length - sentOffset);
  }

  /** The BEGIN/END flags of the next fragment of {@code chunk} bytes. */
  public byte flags(int chunk) {
    int flags = sentOffset == 0 ? FLAG_BEGIN : 0;
    return (byte) (sentOffset + chunk == length ? flags | FLAG_END : flags);
  }

  /** Copies the next {@code chunk} bytes to {@code target} and moves past them. */
  public void copyChunk(MutableDirectBuffer target, int targetOffset, int chunk) {
    target.putBytes(targetOffset, staged, sentOffset, chunk);
    sentOffset += chunk;
    busy = sentOffset < length;
  }

  private void ensureCapacity(int messageLength) {
    if (messageLength > maxMessageBytes) {
      throw new IllegalArgumentException(
          "message of " + messageLength + " bytes exceeds the limit of " + maxMessageBytes);
    }
    if (storage.capacity() >= messageLength) {
      return;
    }
    int capacity = Math.max(INITIAL_CAPACITY, Integer.highestOneBit(messageLength - 1) << 1);
    storage = ByteBuffer.allocateDirect(Math.min(capacity, maxMessageBytes));
    staged.wrap(storage);
  }
}
