package io.rubinbft.net.verbs.provider;

import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.transport.AbstractLink;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.HeldFrameHandler;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequests;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/**
 * A link over one reliable-connected queue pair, after RUBIN: every receive slot of the ring is a
 * posted receive (posted before the peer can send), a send fills one send slot in registered memory
 * and consumes exactly one posted receive at the peer. Released receive slots and committed sends
 * are posted in batches from the pre-built work request lists at {@link #flush}; sends are signaled
 * selectively (the last of each batch and every half ring), and small ones are sent inline.
 *
 * <p>A link is closed from inside {@link #receive} when a frame makes the channel fail; from then
 * on it never touches its registered memory again (a binding may unmap it at once, as shm does).
 */
final class VerbsLink extends AbstractLink {

  private final QueuePair queuePair;
  private final RegisteredMemory sendMemory;
  private final RegisteredMemory receiveMemory;
  private final ByteBuffer sendBytes;
  private final ByteBuffer receiveBytes;
  private final int maxInlineBytes;
  private final int signalInterval;
  private final int[] sendLengths;
  private final int[] arrivedSlots;
  private final int[] arrivedLengths;
  private final int[] heldSlots;
  private final int[] heldLengths;
  private final int[] repostSlots;
  private final FrameFlyweight frame = new FrameFlyweight();
  private long sendCommitted;
  private long sendPosted;
  private long sendCompleted;
  private long arrived;
  private long handedUp;
  private int heldHead;
  private int heldCount;
  private int repostCount;
  private final Runnable onClose;

  private boolean up;
  private boolean closed;
  private @Nullable String failure;
  private boolean failureConclusive;

  VerbsLink(
      LinkSizes sizes,
      InetSocketAddress remoteAddress,
      QueuePair queuePair,
      RegisteredMemory sendMemory,
      RegisteredMemory receiveMemory,
      int maxInlineBytes,
      Runnable onClose)
      throws VerbsException {
    super(sizes, remoteAddress);
    this.onClose = onClose;
    this.queuePair = queuePair;
    this.sendMemory = sendMemory;
    this.receiveMemory = receiveMemory;
    this.sendBytes = sendMemory.segment().asByteBuffer();
    this.receiveBytes = receiveMemory.segment().asByteBuffer();
    this.maxInlineBytes = maxInlineBytes;
    this.signalInterval = Math.max(1, sizes.sendSlots() / 2);
    this.sendLengths = new int[sizes.sendSlots()];
    this.arrivedSlots = new int[sizes.receiveSlots()];
    this.arrivedLengths = new int[sizes.receiveSlots()];
    this.heldSlots = new int[sizes.receiveSlots()];
    this.heldLengths = new int[sizes.receiveSlots()];
    this.repostSlots = new int[sizes.receiveSlots()];
    for (int slot = 0; slot < sizes.receiveSlots(); slot++) {
      repostSlots[repostCount++] = slot;
    }
    postReceives();
  }

  // ---- completions, from the transport's poll ----

  /**
   * A receive completed into {@code slot} (its work request id). Slots are reposted in the order
   * they are released, not ring order, so the completion says which one filled.
   */
  void onReceived(long slot, int byteLength) {
    if (arrived - handedUp >= sizes().receiveSlots()) {
      throw new IllegalStateException("more receives completed than were posted");
    }
    int index = (int) (arrived % sizes().receiveSlots());
    arrivedSlots[index] = (int) slot;
    arrivedLengths[index] = byteLength;
    arrived++;
  }

  /** A signaled send completed: it and every earlier send are done with their slots. */
  void onSendCompleted(long position) {
    sendCompleted = Math.max(sendCompleted, position + 1);
  }

  /**
   * The pair failed or the peer disconnected. The first conclusive reason wins; an inconclusive one
   * (a flushed request, which only says the pair went to the error state) gives way to a later
   * conclusive one, e.g. the failed request or the disconnect that caused the flush.
   */
  void onFailed(String reason, boolean conclusive) {
    if (failure == null || (conclusive && !failureConclusive)) {
      failure = reason;
      failureConclusive = conclusive;
    }
  }

  /** Why the pair failed, or null while it has not. */
  @Nullable String failure() {
    return failure;
  }

  /** Frames arrived that were not yet handed up. */
  boolean hasArrived() {
    return handedUp < arrived;
  }

  /** The connection is established and the layer above knows the link. */
  void markUp() {
    up = true;
  }

  /**
   * Whether the layer above may hear of this link: it is established and not closed. Until then,
   * completions are only recorded (a receive can complete before the passive side's ESTABLISHED).
   */
  boolean isReportable() {
    return up && !closed;
  }

  // ---- Link ----

  @Override
  public boolean canClaim() {
    return !closed && sendCommitted - sendCompleted < sizes().sendSlots();
  }

  @Override
  public boolean claim(FrameFlyweight target) {
    if (!canClaim()) {
      return false;
    }
    int slot = (int) (sendCommitted % sizes().sendSlots());
    target.wrap(sendBytes, slot * sizes().maxFrameBytes(), sizes().maxFrameBytes());
    return true;
  }

  @Override
  public void commit(int frameLength) {
    sendLengths[(int) (sendCommitted % sizes().sendSlots())] = frameLength;
    sendCommitted++;
  }

  @Override
  public boolean flush() throws IOException {
    if (closed) {
      return true;
    }
    postReceives();
    WorkRequests requests = queuePair.sendRequests();
    while (sendPosted < sendCommitted) {
      int batch = (int) Math.min(requests.capacity(), sendCommitted - sendPosted);
      for (int i = 0; i < batch; i++) {
        long position = sendPosted + i;
        int slot = (int) (position % sizes().sendSlots());
        int length = sendLengths[slot];
        boolean signaled = i == batch - 1 || position % signalInterval == signalInterval - 1;
        requests.set(
            i,
            position,
            sendMemory,
            (long) slot * sizes().maxFrameBytes(),
            length,
            signaled,
            length <= maxInlineBytes);
      }
      queuePair.postSend(batch);
      sendPosted += batch;
    }
    return true;
  }

  /** Posts released receive slots again, in one batch. */
  private void postReceives() throws VerbsException {
    if (repostCount == 0) {
      return;
    }
    WorkRequests requests = queuePair.receiveRequests();
    for (int i = 0; i < repostCount; i++) {
      int slot = repostSlots[i];
      requests.set(
          i,
          slot,
          receiveMemory,
          (long) slot * sizes().maxFrameBytes(),
          sizes().maxFrameBytes(),
          true,
          false);
    }
    queuePair.postReceive(repostCount);
    repostCount = 0;
  }

  @Override
  public int receive(FrameSink sink, int limit) {
    int handed = 0;
    while (handed < limit && handedUp < arrived && !closed) {
      int index = (int) (handedUp % sizes().receiveSlots());
      int slot = arrivedSlots[index];
      int length = arrivedLengths[index];
      handedUp++;
      handed++;
      frame.wrap(receiveBytes, slot * sizes().maxFrameBytes(), length);
      if (sink.onFrame(frame, length)) {
        int held = (heldHead + heldCount) % sizes().receiveSlots();
        heldSlots[held] = slot;
        heldLengths[held] = length;
        heldCount++;
      } else {
        release(slot);
      }
    }
    return handed;
  }

  @Override
  public boolean hasHeld() {
    return heldCount > 0 && !closed;
  }

  @Override
  public int deliverHeld(HeldFrameHandler handler, int limit) {
    int delivered = 0;
    while (delivered < limit && heldCount > 0 && !closed) {
      int slot = heldSlots[heldHead];
      int length = heldLengths[heldHead];
      heldHead = (heldHead + 1) % sizes().receiveSlots();
      heldCount--;
      frame.wrap(receiveBytes, slot * sizes().maxFrameBytes(), length);
      handler.onFrame(frame, length);
      release(slot);
      delivered++;
    }
    return delivered;
  }

  /** Queues a slot to be posted again at the next flush (one batch, one doorbell). */
  private void release(int slot) {
    repostSlots[repostCount++] = slot;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onClose.run();
    queuePair.close();
    sendMemory.close();
    receiveMemory.close();
  }
}
