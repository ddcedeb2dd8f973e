package io.rubinbft.net.tcp;

import io.rubinbft.net.frame.FrameFlyweight;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The send side of a TCP link: frames are written in place, back to back, into one buffer of {@code
 * sendSlots * maxFrameBytes} bytes and handed to the socket in as few writes as it takes. A claim
 * needs a whole frame of contiguous space; when the socket is slow the buffer fills and claims
 * fail, which the channel reports as back-pressure. Until the peer has authenticated the buffer
 * holds only two handshake-sized frames (a stranger's connection costs no more); {@link
 * #authenticated} grows it to its full size.
 */
final class TcpSendRing {

  private final int slotCount;
  private final int fullFrameBytes;
  private int maxFrameBytes;
  private ByteBuffer buffer;
  private final UnsafeBuffer view;
  private int head;
  private int tail;

  TcpSendRing(int slotCount, int maxFrameBytes, int handshakeFrameBytes) {
    this.slotCount = slotCount;
    this.fullFrameBytes = maxFrameBytes;
    this.maxFrameBytes = handshakeFrameBytes;
    this.buffer = ByteBuffer.allocateDirect(2 * handshakeFrameBytes);
    this.view = new UnsafeBuffer(buffer);
  }

  /** Grows the buffer to {@code slotCount} full-sized frames, keeping what is not yet written. */
  void authenticated() {
    if (maxFrameBytes == fullFrameBytes) {
      return;
    }
    ByteBuffer grown = ByteBuffer.allocateDirect(Math.multiplyExact(slotCount, fullFrameBytes));
    UnsafeBuffer grownView = new UnsafeBuffer(grown);
    grownView.putBytes(0, view, head, tail - head);
    tail -= head;
    head = 0;
    buffer = grown;
    view.wrap(grown);
    maxFrameBytes = fullFrameBytes;
  }

  boolean canClaim() {
    return buffer.capacity() - (tail - head) >= maxFrameBytes;
  }

  boolean claim(FrameFlyweight frame) {
    if (buffer.capacity() - tail < maxFrameBytes) {
      if (!canClaim()) {
        return false;
      }
      // Unwritten frames move to the front; this happens only while the socket lags behind.
      view.putBytes(0, view, head, tail - head);
      tail -= head;
      head = 0;
    }
    frame.wrap(buffer, tail, maxFrameBytes);
    return true;
  }

  void commit(int frameLength) {
    if (frameLength > maxFrameBytes || tail + frameLength > buffer.capacity()) {
      throw new IllegalStateException(
          "committing " + frameLength + " bytes at " + tail + " of " + buffer.capacity());
    }
    tail += frameLength;
  }

  /** Writes what the socket takes; returns true when nothing is left. */
  boolean flush(WritableByteChannel channel) throws IOException {
    if (head == tail) {
      return true;
    }
    buffer.limit(tail).position(head);
    head += channel.write(buffer);
    if (head == tail) {
      head = 0;
      tail = 0;
      return true;
    }
    return false;
  }
}
