package io.rubinbft.net.fragment;

import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;

import org.agrona.DirectBuffer;

/**
 * Joins the fragments of a message larger than one slot into one buffer, which is handed to the
 * application and then, after {@link #consumed}, reused for the next message or, when large, freed
 * ({@link MessageBuffer}). Never beyond the agreed message limit (which {@link FragmentTracker}
 * enforced on arrival).
 */
public final class Reassembler {

  private final int maxMessageBytes;
  private final MessageBuffer storage = new MessageBuffer();
  private int length;
  private boolean inProgress;

  public Reassembler(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  /**
   * Appends one fragment; returns true when it completes the message, which is then in {@link
   * #message()} for {@link #length()} bytes until {@link #consumed} or the next call. A BEGIN
   * fragment abandons any message in progress (check {@link #inProgress()} first to count that).
   */
  public boolean append(
      DirectBuffer source, int offset, int payloadLength, byte flags, int messageLength) {
    if ((flags & FLAG_BEGIN) != 0) {
      if (messageLength > maxMessageBytes) {
        throw new IllegalStateException(
            "message of " + messageLength + " bytes passed the limit of " + maxMessageBytes);
      }
      storage.sized(messageLength);
      length = 0;
      inProgress = true;
    } else if (!inProgress) {
      throw new IllegalStateException("a continuing fragment arrived with no message begun");
    }
    storage.view().putBytes(length, source, offset, payloadLength);
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

  /** The application is done with the completed message: a large buffer is freed now. */
  public void consumed() {
    storage.release();
  }

  /** Abandons the message in progress, freeing a large buffer; returns whether there was one. */
  public boolean discardPartial() {
    boolean had = inProgress;
    inProgress = false;
    length = 0;
    storage.release();
    return had;
  }

  /**
   * The channel is closed: abandons any message in progress and frees all direct memory now, also
   * the buffer kept between messages. Not while the application still reads {@link #message()}.
   */
  public void close() {
    inProgress = false;
    length = 0;
    storage.close();
  }

  public DirectBuffer message() {
    return storage.view();
  }

  public int length() {
    return length;
  }

  /**
   * Direct bytes held now (between large messages, at most {@link MessageBuffer#RETAINED_BYTES}).
   */
  int heldBytes() {
    return storage.capacity();
  }
}
