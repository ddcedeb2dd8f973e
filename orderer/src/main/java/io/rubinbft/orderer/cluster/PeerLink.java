package io.rubinbft.orderer.cluster;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.Interest;
import io.rubinbft.net.SendResult;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Objects;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * This node's outbound connection to one peer and the frames waiting for it. The connection is the
 * network thread's alone; the queue is bounded in bytes ({@link OutboundQueue}) and filled by any
 * thread: PBFT retransmits what matters (status, votes), so a peer that cannot keep up loses the
 * oldest frames rather than growing this node's memory.
 */
final class PeerLink {

  private static final long RECONNECT_MILLIS = 500;

  private final InetSocketAddress address;
  private final OutboundQueue queued;
  private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
  private @Nullable Channel channel;
  private long nextConnectMillis;

  /**
   * @param smallBudget the bytes of small frames (votes, status) that may wait for this peer
   * @param largeBudget the bytes of large frames (proposals, answers) that may wait for this peer
   */
  PeerLink(InetSocketAddress address, long smallBudget, long largeBudget) {
    this.address = address;
    this.queued = new OutboundQueue(smallBudget, largeBudget);
  }

  InetSocketAddress address() {
    return address;
  }

  /** Queues a frame, from any thread; returns how many older frames were dropped for it. */
  int enqueue(byte[] frame) {
    return queued.add(frame);
  }

  /** The bytes of frames waiting for this peer. */
  long queuedBytes() {
    return queued.bytes();
  }

  /** Whether a new connection should be started now (none open, and the back-off has passed). */
  boolean needsConnect(long nowMillis) {
    return nowMillis >= reconnectDueMillis();
  }

  /**
   * When the next connection should be started: the end of the back-off while no connection is open
   * or opening, {@link Long#MAX_VALUE} while one is (its failure is an I/O event, which ends the
   * network thread's wait by itself).
   */
  long reconnectDueMillis() {
    boolean usable = channel != null && channel.state() != ChannelState.CLOSED;
    return usable ? Long.MAX_VALUE : nextConnectMillis;
  }

  void connected(@Nullable Channel newChannel, long nowMillis) {
    if (channel != null) {
      // Closed: with no interest left, the selector forgets it (its close was never selected,
      // since an idle link asks for CONNECT only).
      channel.key().interests(EnumSet.noneOf(Interest.class));
    }
    channel = newChannel;
    nextConnectMillis = nowMillis + RECONNECT_MILLIS;
  }

  boolean isOpen() {
    return channel != null && channel.state() == ChannelState.OPEN;
  }

  /**
   * Sends queued frames until the peer's credit runs out; returns how many went. A frame larger
   * than the connection carries (the peer may accept less than this node sends) is dropped and
   * counted through {@code oversized}: it closes nothing but itself. The channel's key asks for
   * SEND readiness only while frames are left over: SEND is level-triggered, and an idle link that
   * asked for it would keep the network thread from ever waiting.
   */
  int flush(Runnable oversized) {
    if (!isOpen()) {
      return 0;
    }
    Channel open = Objects.requireNonNull(channel); // open, so connected
    int sent = 0;
    for (byte[] frame = queued.peek(); frame != null; frame = queued.peek()) {
      if (frame.length > open.maxMessageLength()) {
        queued.remove(frame);
        oversized.run();
        continue;
      }
      view.wrap(frame);
      if (open.offer(view, 0, frame.length) != SendResult.SENT) {
        break;
      }
      queued.remove(frame);
      sent++;
    }
    if (queued.isEmpty()) {
      open.key().removeInterest(Interest.SEND);
    } else {
      open.key().addInterest(Interest.SEND);
    }
    return sent;
  }

  void close() {
    if (channel != null) {
      channel.close();
    }
  }
}
