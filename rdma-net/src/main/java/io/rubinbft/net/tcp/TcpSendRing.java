package io.rubinbft.net.tcp;

import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.memory.DirectMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * The send side of a TCP link: frames are written in place, back to back, into one buffer of {@code
 * sendSlots * maxFrameBytes} bytes and handed to the socket in as few writes as it takes. A claim
 * needs a whole frame of contiguous space; when the socket is slow the buffer fills and claims
 * fail, which the channel reports as back-pressure. Until the peer has authenticated the buffer
 * holds only two handshake-sized frames (a stranger's connection costs no more); {@link
 * #authenticated} grows it to its full size, freeing the small one at once. {@link #close} frees
 * the buffer when the link closes, not when the collector gets to it; the frame last claimed is
 * wrapped empty first, so a write into it after the close fails on its bounds check.
 */
final class TcpSendRing {

  private final int slotCount;
  private final int fullFrameBytes;
  private int maxFrameBytes;
  private DirectMemory memory;
  private ByteBuffer buffer;
  private final UnsafeBuffer view;
  private @Nullable FrameFlyweight claimed;
  private int head;
  private int tail;
  private boolean closed;

  TcpSendRing(int slotCount, int maxFrameBytes, int handshakeFrameBytes) {
    this.slotCount = slotCount;
    this.fullFrameBytes = maxFrameBytes;
    this.maxFrameBytes = handshakeFrameBytes;
    this.memory = new DirectMemory(2 * handshakeFrameBytes);
    this.buffer = memory.buffer();
    this.view = new UnsafeBuffer(buffer);
  }

  /** Grows the buffer to {@code slotCount} full-sized frames, keeping what is not yet written. */
  void authenticated() {
    if (maxFrameBytes == fullFrameBytes || closed) {
      return;
    }
    DirectMemory grownMemory = new DirectMemory(Math.multiplyExact(slotCount, fullFrameBytes));
    ByteBuffer grown = grownMemory.buffer();
    UnsafeBuffer grownView = new UnsafeBuffer(grown);
    grownView.putBytes(0, view, head, tail - head);
    tail -= head;
    head = 0;
    buffer = grown;
    view.wrap(grown);
    maxFrameBytes = fullFrameBytes;
    DirectMemory old = memory;
    memory = grownMemory;
    old.close();
  }

  boolean canClaim() {
    return !closed && buffer.capacity() - (tail - head) >= maxFrameBytes;
  }

  boolean claim(FrameFlyweight frame) {
    if (closed) {
      return false;
    }
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
    claimed = frame;
    return true;
  }

  void commit(int frameLength) {
    if (closed) {
      return; // The link is gone, and the frame with it.
    }
    if (frameLength > maxFrameBytes || tail + frameLength > buffer.capacity()) {
      throw new IllegalStateException(
          "committing " + frameLength + " bytes at " + tail + " of " + buffer.capacity());
    }
    tail += frameLength;
  }

  /** Writes what the socket takes; returns true when nothing is left. */
  boolean flush(WritableByteChannel channel) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
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

  /** The link is closed: frees the buffer now; nothing is claimed or written after this. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    FrameFlyweight lastClaimed = claimed;
    if (lastClaimed != null) {
      lastClaimed.wrap(0, 0);
      claimed = null;
    }
    view.wrap(0, 0);
    head = 0;
    tail = 0;
    memory.close();
  }
}
