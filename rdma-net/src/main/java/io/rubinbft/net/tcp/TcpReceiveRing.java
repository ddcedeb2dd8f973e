package io.rubinbft.net.tcp;

import io.rubinbft.net.DropReason;
import io.rubinbft.net.frame.FrameDescriptor;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.memory.DirectMemory;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.HeldFrameHandler;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * The receive side of a TCP link. Bytes are read into a staging buffer and frames are handed up in
 * place from there; a frame the application has not consumed by the next read is moved into one of
 * {@code receiveSlots} fixed slots first, so the staging buffer can be reused. Credit bounds the
 * frames held at {@code receiveSlots}, so the slots never run out and memory never grows: in the
 * common case (the application keeps up) no frame is copied at all.
 *
 * <p>Until the peer has authenticated, the staging buffer holds two handshake-sized frames, larger
 * frames are refused and there are no slots (nothing is held before authentication): a stranger's
 * connection costs no more. {@link #authenticated} raises the frame limit at once and grows the
 * buffers before the next read.
 *
 * <p>The buffers are freed when the link closes ({@link #close}), not when the collector gets to
 * them; the old ones at once when they grow. A close from inside {@link #receive} or {@link
 * #deliverHeld} (the frame handed up made the channel fail) frees them when that call returns, as
 * the frame handed up lies in them: nothing is read or handed up after the close.
 */
final class TcpReceiveRing {

  private static final int MIN_STAGING_BYTES = 256 * 1024;

  private final int fullFrameBytes;
  private int maxFrameBytes;
  private final int slotCount;
  private DirectMemory stagingMemory;
  private ByteBuffer staging;
  private final UnsafeBuffer stagingView;
  private @Nullable DirectMemory slotsMemory;
  private final UnsafeBuffer slotsView = new UnsafeBuffer(0, 0);
  private final FrameFlyweight frame = new FrameFlyweight();
  private final int[] heldOffset;
  private final int[] heldLength;
  private final boolean[] heldInStaging;
  private int heldHead;
  private int heldCount;
  private int slotsInUse;
  private long slotsAssigned;
  private int parsePosition;
  private int readLimit;
  private boolean drained;
  private boolean growPending;
  private int callDepth;
  private boolean closed;

  TcpReceiveRing(int slotCount, int maxFrameBytes, int handshakeFrameBytes) {
    this.fullFrameBytes = maxFrameBytes;
    this.maxFrameBytes = handshakeFrameBytes;
    this.slotCount = slotCount;
    this.stagingMemory = new DirectMemory(2 * handshakeFrameBytes);
    this.staging = stagingMemory.buffer();
    this.stagingView = new UnsafeBuffer(staging);
    this.heldOffset = new int[slotCount];
    this.heldLength = new int[slotCount];
    this.heldInStaging = new boolean[slotCount];
  }

  /**
   * The peer has authenticated: frames up to the full size are taken from now on, and the staging
   * buffer and slots grow before the next read (not now: the frame being parsed lies in staging).
   */
  void authenticated() {
    if (maxFrameBytes != fullFrameBytes) {
      maxFrameBytes = fullFrameBytes;
      growPending = true;
    }
  }

  /** The selector reports the socket readable: the next {@link #receive} reads again. */
  void onSocketReadable() {
    drained = false;
  }

  /**
   * Reads once from {@code channel}, unless the last read drained it since it was last reported
   * readable, and hands up to {@code limit} whole frames to {@code sink}.
   */
  int receive(ReadableByteChannel channel, FrameSink sink, int limit) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    callDepth++;
    try {
      if (!drained) {
        read(channel);
      }
      return parse(sink, limit);
    } finally {
      returned();
    }
  }

  private void read(ReadableByteChannel channel) throws IOException {
    if (growPending) {
      grow();
    }
    evacuateStaging();
    compactStaging();
    int room = staging.capacity() - readLimit;
    staging.limit(staging.capacity()).position(readLimit);
    int read = channel.read(staging);
    if (read < 0) {
      throw new EOFException(
          parsePosition == readLimit
              ? "peer closed the connection"
              : "peer closed the connection in the middle of a frame");
    }
    readLimit += read;
    // A read that left room took all the socket had: another one before the selector reports the
    // socket readable again would only return nothing, a wasted system call per message.
    drained = read < room;
  }

  private int parse(FrameSink sink, int limit) {
    int handed = 0;
    while (!closed && handed < limit && readLimit - parsePosition >= Integer.BYTES) {
      int length = stagingView.getInt(parsePosition + FrameDescriptor.LENGTH_OFFSET);
      if (length < FrameDescriptor.OVERHEAD || length > maxFrameBytes) {
        sink.onUnframeable(
            length < FrameDescriptor.OVERHEAD ? DropReason.TRUNCATED : DropReason.OVERSIZED,
            "frame length is "
                + length
                + " but must be between "
                + FrameDescriptor.OVERHEAD
                + " and "
                + maxFrameBytes);
        return handed;
      }
      if (readLimit - parsePosition < length) {
        break;
      }
      frame.wrap(staging, parsePosition, length);
      if (sink.onFrame(frame, length) && !closed) {
        hold(true, parsePosition, length);
      }
      parsePosition += length;
      handed++;
    }
    return handed;
  }

  boolean hasHeld() {
    return !closed && heldCount > 0;
  }

  int deliverHeld(HeldFrameHandler handler, int limit) {
    if (closed) {
      return 0;
    }
    callDepth++;
    try {
      return deliverHeldFrames(handler, limit);
    } finally {
      returned();
    }
  }

  private int deliverHeldFrames(HeldFrameHandler handler, int limit) {
    int delivered = 0;
    while (!closed && delivered < limit && heldCount > 0) {
      int length = heldLength[heldHead];
      boolean inStaging = heldInStaging[heldHead];
      frame.wrap(inStaging ? stagingView : slotsView, heldOffset[heldHead], length);
      heldHead = (heldHead + 1) % slotCount;
      heldCount--;
      if (!inStaging) {
        slotsInUse--;
      }
      handler.onFrame(frame, length);
      delivered++;
    }
    return delivered;
  }

  private void hold(boolean inStaging, int offset, int length) {
    if (heldCount == slotCount) {
      throw new IllegalStateException(
          "all " + slotCount + " receive slots are held: the credit check was bypassed");
    }
    int index = (heldHead + heldCount) % slotCount;
    heldInStaging[index] = inStaging;
    heldOffset[index] = offset;
    heldLength[index] = length;
    heldCount++;
  }

  /** Moves frames still held in the staging buffer into slots (oldest slots are freed first). */
  private void evacuateStaging() {
    for (int i = 0; i < heldCount; i++) {
      int index = (heldHead + i) % slotCount;
      if (heldInStaging[index]) {
        if (slotsInUse == slotCount) {
          throw new IllegalStateException("no free receive slot for a held frame");
        }
        int slotOffset = (int) (slotsAssigned++ % slotCount) * maxFrameBytes;
        slotsView.putBytes(slotOffset, stagingView, heldOffset[index], heldLength[index]);
        heldInStaging[index] = false;
        heldOffset[index] = slotOffset;
        slotsInUse++;
      }
    }
  }

  /**
   * Allocates the slots and a full-sized staging buffer; frames held in the old staging buffer move
   * into slots and the unparsed bytes to the start of the new one.
   */
  private void grow() {
    DirectMemory grownSlots = new DirectMemory(Math.multiplyExact(slotCount, fullFrameBytes));
    DirectMemory grownStaging;
    try {
      grownStaging = new DirectMemory(Math.max(MIN_STAGING_BYTES, 2 * fullFrameBytes));
    } catch (OutOfMemoryError e) {
      grownSlots.close();
      throw e;
    }
    slotsMemory = grownSlots;
    slotsView.wrap(grownSlots.buffer());
    evacuateStaging();
    int remaining = readLimit - parsePosition;
    ByteBuffer grown = grownStaging.buffer();
    new UnsafeBuffer(grown).putBytes(0, stagingView, parsePosition, remaining);
    DirectMemory old = stagingMemory;
    stagingMemory = grownStaging;
    staging = grown;
    stagingView.wrap(grown);
    old.close();
    parsePosition = 0;
    readLimit = remaining;
    growPending = false;
  }

  /** Moves a partly received frame to the start of the staging buffer. */
  private void compactStaging() {
    int remaining = readLimit - parsePosition;
    if (parsePosition > 0 && remaining > 0) {
      stagingView.putBytes(0, stagingView, parsePosition, remaining);
    }
    parsePosition = 0;
    readLimit = remaining;
  }

  /**
   * The link is closed: held frames are dropped and the buffers freed now, or, when called from
   * inside {@link #receive} or {@link #deliverHeld}, as soon as that call returns.
   */
  void close() {
    closed = true;
    heldCount = 0;
    if (callDepth == 0) {
      free();
    }
  }

  private void returned() {
    callDepth--;
    if (closed && callDepth == 0) {
      free();
    }
  }

  private void free() {
    frame.wrap(0, 0);
    stagingView.wrap(0, 0);
    slotsView.wrap(0, 0);
    stagingMemory.close();
    DirectMemory heldSlots = slotsMemory;
    if (heldSlots != null) {
      slotsMemory = null;
      heldSlots.close();
    }
  }
}
