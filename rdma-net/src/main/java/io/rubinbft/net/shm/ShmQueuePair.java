package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionHandler;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequests;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * One side of a reliable-connected queue pair in shared memory, and the "NIC" that executes its
 * sends. A send is delivered by this side's own process, during {@code postSend} and during polls
 * of the pair's completion queues: it takes the peer's oldest posted receive, copies the message
 * from local registered memory (or the inline copy) straight into the peer's mapped buffer,
 * completes the peer's receive slot and publishes it. With no receive posted the send waits, one
 * retry per pass, up to the receiver-not-ready limit, then the pair fails as RC's RNR retry
 * exhaustion does. Single-threaded, like the selector that drives it.
 */
final class ShmQueuePair implements QueuePair {

  private enum Phase {
    PENDING,
    CONNECTED,
    ERROR,
    CLOSED
  }

  private final ShmVerbsDevice device;
  private final int number;
  private final Arena arena;
  private final Path ownPath;
  private final QueuePairFile own;
  private final ReceiveRing receives;
  private final SendQueue sends;
  private final ShmWorkRequests sendRequests;
  private final ShmWorkRequests receiveRequests;
  private final ShmCompletionQueue sendCompletions;
  private final ShmCompletionQueue receiveCompletions;
  private final long[] receiveIds;
  private final int[] receiveCapacities;
  private final int receiverNotReadyRetries;

  @SuppressWarnings("NullAway.Init") // set when the peer is connected, before any use
  private QueuePairFile peer;

  @SuppressWarnings("NullAway.Init") // set when the peer is connected, before any use
  private ReceiveRing peerReceives;

  @SuppressWarnings("NullAway.Init") // set when the peer is connected, before any use
  private PeerRegions peerRegions;

  private @Nullable PeerDoorbell bell;
  private Phase phase = Phase.PENDING;
  private boolean failureReported;
  private int receiverNotReadyPasses;

  private long sendPosted;
  private long sendExecuted;
  private long sendScanned;
  private long sendFreed;
  private long receivePosted;
  private long receiveReaped;
  private long receiveClosedAt = -1;

  ShmQueuePair(ShmVerbsDevice device, int number, QueuePairResources resources) {
    this.device = device;
    this.number = number;
    this.arena = resources.arena();
    this.ownPath = resources.path();
    this.own = resources.file();
    QueuePairSpec spec = resources.spec();
    this.sendCompletions = (ShmCompletionQueue) spec.sendCompletions();
    this.receiveCompletions = (ShmCompletionQueue) spec.receiveCompletions();
    int maxInline = spec.maxInlineBytes();
    this.receives = new ReceiveRing(own.segment(), spec.receiveQueueDepth());
    this.sends = new SendQueue(spec.sendQueueDepth(), maxInline, arena);
    this.sendRequests = new ShmWorkRequests(device, spec.sendQueueDepth(), maxInline);
    // Receives ignore the inline flag: no limit applies to them.
    this.receiveRequests = new ShmWorkRequests(device, spec.receiveQueueDepth(), Integer.MAX_VALUE);
    this.receiveIds = new long[spec.receiveQueueDepth()];
    this.receiveCapacities = new int[spec.receiveQueueDepth()];
    this.receiverNotReadyRetries = device.options().receiverNotReadyRetries();
  }

  /** What a queue pair is made of, created by the device before the pair itself. */
  record QueuePairResources(Arena arena, Path path, QueuePairFile file, QueuePairSpec spec) {}

  @Override
  public int number() {
    return number;
  }

  @Override
  public WorkRequests sendRequests() {
    return sendRequests;
  }

  @Override
  public WorkRequests receiveRequests() {
    return receiveRequests;
  }

  QueuePairFile ownFile() {
    return own;
  }

  QueuePairFile peerFile() {
    return peer;
  }

  Arena arena() {
    return arena;
  }

  ShmCompletionQueue sendCompletions() {
    return sendCompletions;
  }

  ShmCompletionQueue receiveCompletions() {
    return receiveCompletions;
  }

  /** Names the peer's side once it is known: at request pickup (acceptor) or acceptance. */
  void attachPeer(QueuePairFile peerFile) {
    this.peer = peerFile;
    this.peerReceives = new ReceiveRing(peerFile.segment(), peerFile.receiveDepth());
    this.peerRegions = new PeerRegions(device.directory(), peerFile.owner().deviceKey(), arena);
    useDoorbellOf(peerFile.owner().deviceKey());
  }

  /** Rings device {@code deviceKey} from now on: the connector learns it before the peer's side. */
  void useDoorbellOf(long deviceKey) {
    if (bell != null && bell.deviceKey() == deviceKey) {
      return;
    }
    if (bell != null) {
      bell.close();
    }
    bell = PeerDoorbell.open(device.directory(), deviceKey, arena);
  }

  /** Wakes the peer device if it sleeps: call after publishing anything it must see. */
  void ringPeer() {
    if (bell != null) {
      bell.ring();
    }
  }

  /** Whether a send waits for a receive: only this process's passes can deliver it. */
  boolean hasUndeliveredSends() {
    return phase == Phase.CONNECTED && sendExecuted < sendPosted;
  }

  /** The connection is up: sends may be posted from now on. */
  void markConnected() {
    if (phase == Phase.PENDING) {
      phase = Phase.CONNECTED;
    }
  }

  boolean isClosed() {
    return phase == Phase.CLOSED;
  }

  /** True once after the pair failed, so the device reports it as disconnected exactly once. */
  boolean takeUnreportedFailure() {
    if (phase != Phase.ERROR || failureReported) {
      return false;
    }
    failureReported = true;
    return true;
  }

  @Override
  public void postSend(int count) throws VerbsException {
    checkPostable(count, sendRequests, "send");
    if (phase == Phase.PENDING) {
      throw new VerbsException(
          "queue pair " + number + " is not connected yet: post sends after it is established");
    }
    checkRoom("send", sendPosted - sendFreed, "outstanding", count, sendRequests.capacity());
    for (int i = 0; i < count; i++) {
      writeSend(sendPosted + i, i);
    }
    sendPosted += count;
    if (phase == Phase.ERROR) {
      sendExecuted = sendPosted;
    }
    progress();
  }

  private void writeSend(long position, int index) {
    sends.post(
        position,
        sendRequests.workRequestId(index),
        sendRequests.memory(index).segment(),
        sendRequests.offset(index),
        sendRequests.length(index),
        sendRequests.signaled(index),
        sendRequests.inline(index));
    if (phase == Phase.ERROR) {
      sends.complete(position, CompletionStatus.FLUSHED);
    }
  }

  @Override
  public void postReceive(int count) throws VerbsException {
    checkPostable(count, receiveRequests, "receive");
    checkRoom(
        "receive", receivePosted - receiveReaped, "posted", count, receiveRequests.capacity());
    for (int i = 0; i < count; i++) {
      long position = receivePosted + i;
      int slot = (int) (position % receiveIds.length);
      receiveIds[slot] = receiveRequests.workRequestId(i);
      receiveCapacities[slot] = receiveRequests.length(i);
      receives.post(
          position,
          receiveRequests.memory(i).regionId(),
          receiveRequests.offset(i),
          receiveRequests.length(i));
    }
    receivePosted += count;
    receives.publishPosted(receivePosted);
  }

  private void checkPostable(int count, ShmWorkRequests requests, String kind)
      throws VerbsException {
    if (phase == Phase.CLOSED) {
      throw new VerbsException("queue pair " + number + " is closed");
    }
    if (count < 0 || count > requests.capacity()) {
      throw new VerbsException(
          "cannot post " + count + " " + kind + " requests: the list holds " + requests.capacity());
    }
  }

  /** Refuses a post of {@code count} more when {@code held} already fill the queue's capacity. */
  private void checkRoom(String kind, long held, String heldAs, int count, int capacity)
      throws VerbsException {
    if (held + count > capacity) {
      throw new VerbsException(
          kind
              + " queue of queue pair "
              + number
              + " is full: "
              + held
              + " of "
              + capacity
              + " "
              + heldAs
              + ", "
              + count
              + " more posted");
    }
  }

  /** One pass of the "NIC": delivers what it can, counting a receiver-not-ready retry if stuck. */
  void progress() {
    checkPeer();
    if (phase != Phase.CONNECTED) {
      return;
    }
    long executedBefore = sendExecuted;
    deliverPending();
    if (sendExecuted != executedBefore) {
      ringPeer();
    }
  }

  private void deliverPending() {
    while (sendExecuted < sendPosted) {
      long word = peerReceives.deliveredWord();
      if (ReceiveRing.isClosed(word)) {
        fail(CompletionStatus.FLUSHED, SideState.ERROR);
        return;
      }
      if (word < 0) {
        // No position is negative: the peer wrote its ring's delivered count, which only this
        // side's deliveries (and the closed bit) may change.
        fail(CompletionStatus.REMOTE_INVALID_REQUEST, SideState.ERROR);
        return;
      }
      if (word >= peerReceives.posted()) {
        device.countReceiverNotReady();
        if (++receiverNotReadyPasses > receiverNotReadyRetries) {
          fail(CompletionStatus.RECEIVER_NOT_READY, SideState.ERROR);
        }
        return;
      }
      receiverNotReadyPasses = 0;
      if (!deliverHead(word)) {
        return;
      }
    }
  }

  /** Fails a connected pair whose peer left: it disconnected, failed or closed. */
  void checkPeer() {
    if (phase == Phase.CONNECTED && peer.sideState() != SideState.OPEN) {
      fail(CompletionStatus.FLUSHED, SideState.ERROR);
    }
  }

  /** Delivers the oldest unexecuted send into the peer's receive {@code position}. */
  private boolean deliverHead(long position) {
    long head = sendExecuted;
    int length = sends.length(head);
    long offset = peerReceives.offset(position);
    int capacity = peerReceives.length(position);
    MemorySegment region = peerRegions.region(peerReceives.regionId(position));
    // Written so that no sum can overflow: the peer chooses offset and capacity freely.
    if (region == null || offset < 0 || capacity < 0 || offset > region.byteSize() - capacity) {
      // The peer posted a buffer it does not have: its protection error, our remote error.
      return failDelivery(position, CompletionStatus.OTHER_ERROR);
    }
    if (length > capacity) {
      return failDelivery(position, CompletionStatus.LOCAL_LENGTH_ERROR);
    }
    MemorySegment.copy(sends.source(head), sends.sourceOffset(head), region, offset, length);
    peerReceives.complete(position, length, CompletionStatus.SUCCESS);
    if (!peerReceives.publishDelivery(position)) {
      fail(CompletionStatus.FLUSHED, SideState.ERROR);
      return false;
    }
    sends.complete(head, CompletionStatus.SUCCESS);
    sendExecuted++;
    return true;
  }

  /**
   * Fails the receive at the peer with {@code receiveStatus} and this pair with
   * REMOTE_INVALID_REQUEST: the sender's side of a receiver's error.
   */
  private boolean failDelivery(long position, CompletionStatus receiveStatus) {
    peerReceives.complete(position, 0, receiveStatus);
    peerReceives.publishDelivery(position);
    fail(CompletionStatus.REMOTE_INVALID_REQUEST, SideState.ERROR);
    return false;
  }

  /** The peer's process is gone: the head send could not be delivered. */
  void peerUnreachable() {
    fail(CompletionStatus.TRANSPORT_RETRY_EXCEEDED, SideState.ERROR);
  }

  /**
   * Moves the pair to the error state: the oldest unexecuted send completes with {@code
   * headStatus}, every later one and every posted receive not yet delivered with FLUSHED, and the
   * peer learns from {@code published}.
   */
  void fail(CompletionStatus headStatus, SideState published) {
    if (phase == Phase.ERROR || phase == Phase.CLOSED) {
      return;
    }
    phase = Phase.ERROR;
    if (sendExecuted < sendPosted) {
      sends.complete(sendExecuted, headStatus);
      for (long position = sendExecuted + 1; position < sendPosted; position++) {
        sends.complete(position, CompletionStatus.FLUSHED);
      }
      sendExecuted = sendPosted;
    }
    receiveClosedAt = Math.min(receives.close(), receivePosted);
    own.publishSideState(published);
    ringPeer();
  }

  /** Hands out send completions in posting order; unsignaled successes retire silently. */
  int pollSends(CompletionHandler handler, int max) {
    int delivered = 0;
    while (delivered < max && sendScanned < sendExecuted && phase != Phase.CLOSED) {
      long position = sendScanned++;
      CompletionStatus status = sends.status(position);
      if (status != CompletionStatus.SUCCESS || sends.signaled(position)) {
        sendFreed = sendScanned;
        delivered++;
        handler.onCompletion(
            number, sends.workRequestId(position), CompletionOpcode.SEND, status, 0);
      }
    }
    return delivered;
  }

  /** Hands out receive completions in posting order: delivered ones, then flushed ones. */
  int pollReceives(CompletionHandler handler, int max) {
    checkPeer();
    int delivered = 0;
    while (delivered < max && phase != Phase.CLOSED) {
      long limit = receiveClosedAt >= 0 ? receiveClosedAt : deliveredByPeer();
      if (receiveReaped < limit) {
        reapDelivered(handler);
      } else if (receiveClosedAt >= 0 && receiveReaped < receivePosted) {
        long position = receiveReaped++;
        handler.onCompletion(
            number, receiveId(position), CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED, 0);
      } else {
        break;
      }
      delivered++;
    }
    return delivered;
  }

  /** How many receives the peer filled, never more than were posted (else the peer is faulty). */
  private long deliveredByPeer() {
    long delivered = ReceiveRing.count(receives.deliveredWord());
    if (delivered > receivePosted) {
      fail(CompletionStatus.FLUSHED, SideState.ERROR);
      return receiveClosedAt;
    }
    return delivered;
  }

  private long receiveId(long position) {
    return receiveIds[(int) (position % receiveIds.length)];
  }

  private void reapDelivered(CompletionHandler handler) {
    long position = receiveReaped++;
    CompletionStatus status = QueuePairFileDescriptor.status(receives.statusCode(position));
    int byteLength = receives.byteLength(position);
    int capacity = receiveCapacities[(int) (position % receiveCapacities.length)];
    if (status == null || byteLength < 0 || byteLength > capacity) {
      // A faulty peer wrote a slot no sender writes: treat it as the pair's failure.
      status = CompletionStatus.OTHER_ERROR;
      byteLength = 0;
    }
    if (status != CompletionStatus.SUCCESS) {
      fail(CompletionStatus.FLUSHED, SideState.ERROR);
    }
    handler.onCompletion(number, receiveId(position), CompletionOpcode.RECEIVE, status, byteLength);
  }

  @Override
  public void disconnect() throws VerbsException {
    if (phase == Phase.CLOSED) {
      throw new VerbsException("queue pair " + number + " is closed");
    }
    fail(CompletionStatus.FLUSHED, SideState.DISCONNECTED);
  }

  @Override
  public void close() {
    if (phase == Phase.CLOSED) {
      return;
    }
    fail(CompletionStatus.FLUSHED, SideState.CLOSED);
    own.publishSideState(SideState.CLOSED);
    ringPeer();
    if (bell != null) {
      bell.close();
    }
    phase = Phase.CLOSED;
    device.forget(this);
    arena.close();
    DeviceDirectory.deleteQuietly(ownPath);
  }

  @Override
  public String toString() {
    return "shm queue pair " + number + " (" + phase + ")";
  }
}
