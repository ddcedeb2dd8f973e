package io.rubinbft.net.fragment;

import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;

/**
 * Checks, as data frames arrive, that each fragment continues the message in progress: a message
 * starts at offset 0 with BEGIN, every next fragment starts where the last ended and names the same
 * message length, and END comes exactly at that length, which is at most the agreed limit. Frames
 * it refuses are dropped before they are held, so reassembly only ever sees well-formed runs.
 */
public final class FragmentTracker {

  private static final int NONE = -1;

  private final int maxMessageBytes;
  private int messageLength = NONE;
  private int nextOffset;

  public FragmentTracker(int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
  }

  /** Whether the fragment is acceptable; a refused one also abandons the message in progress. */
  public boolean accept(byte flags, int messageLength, int fragmentOffset, int payloadLength) {
    if (!wellFormed(flags, messageLength, fragmentOffset, payloadLength)) {
      this.messageLength = NONE;
      return false;
    }
    if ((flags & FLAG_END) != 0) {
      this.messageLength = NONE;
    } else {
      this.messageLength = messageLength;
      this.nextOffset = fragmentOffset + payloadLength;
    }
    return true;
  }

  private boolean wellFormed(byte flags, int messageLength, int fragmentOffset, int payloadLength) {
    boolean begin = (flags & FLAG_BEGIN) != 0;
    boolean end = (flags & FLAG_END) != 0;
    if (messageLength < 0 || messageLength > maxMessageBytes || payloadLength < 0) {
      return false;
    }
    boolean continues =
        begin
            ? fragmentOffset == 0
            : this.messageLength == messageLength && fragmentOffset == nextOffset;
    long fragmentEnd = (long) fragmentOffset + payloadLength;
    boolean endsRight = end ? fragmentEnd == messageLength : fragmentEnd < messageLength;
    boolean progresses = end || payloadLength > 0;
    return continues && endsRight && progresses;
  }

  /** Whether a message has begun and not ended. */
  public boolean inProgress() {
    return messageLength != NONE;
  }
}
