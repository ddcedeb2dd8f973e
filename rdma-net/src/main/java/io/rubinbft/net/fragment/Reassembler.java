package io.rubinbft.net.fragment;

import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Joins the fragments of a message larger than one slot into one buffer, which is handed to the
 * application and reused for the next message. The buffer grows in powers of two on demand and
 * never beyond the agreed message limit (which {@link FragmentTracker} enforced on arrival).
 */
public final class Reassembler {

  private static final int INITIAL_CAPACITY = 64 * 1024;

  private final int maxMessageBytes;
  private final UnsafeBuffer message = new UnsafeBuffer(0, 0);
  private ByteBuffer storage = ByteBuffer.allocateDirect(0);
  private int length;
  private boolean inProgress;

  public Reassembler(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  /**
   * Appends one fragment; returns true when it completes the message, which is then in {@link
   * #message()} for {@link #length()} bytes until the next call. A BEGIN fragment abandons any
   * message in progress (check {@link #inProgress()} first to count that).
   */
  public boolean append(
      DirectBuffer source, int offset, int payloadLength, byte flags, int messageLength) {
    if ((flags & FLAG_BEGIN) != 0) {
      ensureCapacity(messageLength);
      length = 0;
      inProgress = true;
    } else if (!inProgress) {
      throw new IllegalStateException("a continuing fragment arrived with no message begun");
    }
    message.putBytes(length, source, offset, payloadLength);
    length += payloadLength;
    if ((flags & FLAG_END) != 0) {
      inProgress = false;
      return true;
    }
    return false;
  }

  /** Whether a begun message is incomplete (its peer failed or a fragment was refused). */
  public boolean inProgress() {
    return inProgress;
  }

  /** Abandons the message in progress; returns whether there was one. */
  public boolean discardPartial() {
    boolean had = inProgress;
    inProgress = false;
    length = 0;
    return had;
  }

  public DirectBuffer message() {
    return message;
  }

  public int length() {
    return length;
  }

  private void ensureCapacity(int messageLength) {
    if (messageLength > maxMessageBytes) {
      throw new IllegalStateException(
          "message of " + messageLength + " bytes passed the limit of " + maxMessageBytes);
    }
    if (storage.capacity() >= messageLength) {
      return;
    }
    int capacity = Math.max(INITIAL_CAPACITY, Integer.highestOneBit(messageLength - 1) << 1);
    storage = ByteBuffer.allocateDirect(Math.min(capacity, maxMessageBytes));
    message.wrap(storage);
  }
}
