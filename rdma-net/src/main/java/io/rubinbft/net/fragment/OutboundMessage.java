package io.rubinbft.net.fragment;

import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * A message larger than one frame, sent fragment by fragment as credit allows. Fragments are copied
 * into frames straight from the caller's buffer while the window and the send ring take them; only
 * what is left when the offer returns is copied into a staging buffer ({@link #stageRemainder}), so
 * a message that goes at once is copied once, not twice. One per channel: a second large message
 * waits (back-pressure) until the first has gone. A large staging buffer is freed once its last
 * fragment has gone ({@link MessageBuffer}).
 */
public final class OutboundMessage {

  private final int maxMessageBytes;
  private final MessageBuffer staging = new MessageBuffer();
  private @Nullable DirectBuffer source;
  private int sourceOffset;
  private int length;
  private int sentOffset;
  private boolean busy;

  public OutboundMessage(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  /**
   * Starts sending a message from the caller's buffer, without copying it; the previous one must
   * have gone. Call {@link #stageRemainder} before the caller may reuse its buffer.
   */
  public void begin(DirectBuffer buffer, int offset, int messageLength) {
    if (busy) {
      throw new IllegalStateException("a fragmented message is still being sent");
    }
    if (messageLength > maxMessageBytes) {
      throw new IllegalArgumentException(
          "message of " + messageLength + " bytes exceeds the limit of " + maxMessageBytes);
    }
    source = buffer;
    sourceOffset = offset;
    length = messageLength;
    sentOffset = 0;
    busy = true;
  }

  /**
   * Copies the fragments not sent yet out of the caller's buffer, which is not referenced after
   * this; nothing to do when the whole message went.
   */
  public void stageRemainder() {
    if (!busy) {
      source = null;
    } else if (source != staging.view()) {
      int remaining = length - sentOffset;
      UnsafeBuffer staged = staging.sized(remaining);
      staged.putBytes(0, source, sourceOffset + sentOffset, remaining);
      source = staged;
      // Only the rest is staged, at the buffer's start: byte i of the message is at i - sentOffset.
      sourceOffset = -sentOffset;
    }
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
    target.putBytes(targetOffset, source, sourceOffset + sentOffset, chunk);
    sentOffset += chunk;
    busy = sentOffset < length;
    if (!busy && source == staging.view()) {
      staging.release();
    }
  }

  /**
   * The channel is closed: the message being sent is abandoned and all direct memory freed now,
   * also the buffer kept between messages.
   */
  public void close() {
    busy = false;
    source = null;
    staging.close();
  }

  /**
   * Direct bytes held now (between large messages, at most {@link MessageBuffer#RETAINED_BYTES}).
   */
  int heldBytes() {
    return staging.capacity();
  }
}
