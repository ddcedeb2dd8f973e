package io.rubinbft.net.verbs.provider;

import io.rubinbft.net.verbs.CompletionHandler;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequestList;
import io.rubinbft.net.verbs.WorkRequests;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * TEST DOUBLE of a verbs device, in-process, for testing the verbs provider before a real binding
 * is at hand. It keeps the semantics the provider relies on: a send consumes the peer's oldest
 * posted receive or, with none posted, fails the pair as RECEIVER_NOT_READY (counted on the
 * fabric); completions come in posting order; unsignaled sends complete silently. On request the
 * accepting side's ESTABLISHED comes only after its first receive completion (see {@link
 * LoopbackVerbsFabric#LoopbackVerbsFabric(boolean)}).
 */
final class LoopbackVerbsDevice implements VerbsDevice {

  private final LoopbackVerbsFabric fabric;
  private final ArrayDeque<Consumer<ConnectionEventHandler>> connectionEvents = new ArrayDeque<>();
  private final Arena arena = Arena.ofShared();

  LoopbackVerbsDevice(LoopbackVerbsFabric fabric) {
    this.fabric = fabric;
  }

  @Override
  public String name() {
    return "loopback-test-double";
  }

  @Override
  public RegisteredMemory register(long bytes) {
    MemorySegment segment = arena.allocate(bytes, 64);
    return new RegisteredMemory() {
      @Override
      public MemorySegment segment() {
        return segment;
      }

      @Override
      public void close() {
        // Freed with the device's arena.
      }
    };
  }

  @Override
  public CompletionQueue createCompletionQueue(int capacity) {
    return new Queue(capacity);
  }

  @Override
  public ConnectionListener listen(InetSocketAddress address, QueuePairSpec spec) {
    Listener listener = new Listener(this, spec);
    listener.address = fabric.bind(address, listener);
    return listener;
  }

  @Override
  public PendingConnection connect(InetSocketAddress address, QueuePairSpec spec, byte[] data) {
    Pair local = new Pair(fabric.newQueuePairNumber(), spec, this);
    Pending outgoing = new Pending(local);
    Listener listener = fabric.listenerAt(address);
    if (listener == null) {
      connectionEvents.add(handler -> handler.failed(outgoing, "no listener at " + address));
      return outgoing;
    }
    Pair remote = new Pair(fabric.newQueuePairNumber(), listener.spec, listener.device);
    Pending incoming = new Pending(remote);
    incoming.peerPending = outgoing;
    listener.device.connectionEvents.add(
        handler -> handler.connectRequested(listener, incoming, data));
    return outgoing;
  }

  @Override
  public int maxPrivateDataBytes() {
    return 56;
  }

  @Override
  public int pollConnectionEvents(ConnectionEventHandler handler) {
    int count = 0;
    while (!connectionEvents.isEmpty()) {
      connectionEvents.poll().accept(handler);
      count++;
    }
    return count;
  }

  @Override
  public void close() {
    // The arena stays open: the peer's pairs may still copy into this side's memory until they
    // see the disconnect, as they would on a real fabric.
  }

  /** A completion queue with a hard capacity, as a device's is. */
  static final class Queue implements CompletionQueue {
    private record Completion(
        Pair pair, long id, CompletionOpcode opcode, CompletionStatus status, int length) {}

    private final int capacity;
    private final ArrayDeque<Completion> completions = new ArrayDeque<>();

    Queue(int capacity) {
      this.capacity = capacity;
    }

    void add(Pair pair, long id, CompletionOpcode opcode, CompletionStatus status, int length) {
      if (completions.size() == capacity) {
        throw new IllegalStateException("completion queue overrun at " + capacity);
      }
      completions.add(new Completion(pair, id, opcode, status, length));
    }

    @Override
    public int poll(CompletionHandler handler, int max) {
      int count = 0;
      while (count < max && !completions.isEmpty()) {
        Completion c = completions.poll();
        handler.onCompletion(c.pair().number, c.id(), c.opcode(), c.status(), c.length());
        c.pair().releaseEstablished();
        count++;
      }
      return count;
    }

    @Override
    public void close() {
      completions.clear();
    }
  }

  /** A listening endpoint of this device. */
  static final class Listener implements ConnectionListener {
    final LoopbackVerbsDevice device;
    final QueuePairSpec spec;
    InetSocketAddress address;

    Listener(LoopbackVerbsDevice device, QueuePairSpec spec) {
      this.device = device;
      this.spec = spec;
    }

    @Override
    public InetSocketAddress localAddress() {
      return address;
    }

    @Override
    public void close() {
      device.fabric.unbind(address.getPort());
    }
  }

  /** A connection being made; accepting one connects both pairs and tells both devices. */
  static final class Pending implements PendingConnection {
    final Pair pair;
    Pending peerPending;

    Pending(Pair pair) {
      this.pair = pair;
    }

    @Override
    public QueuePair queuePair() {
      return pair;
    }

    @Override
    public void accept(byte[] privateData) {
      Pair initiator = peerPending.pair;
      pair.peer = initiator;
      initiator.peer = pair;
      Consumer<ConnectionEventHandler> established =
          handler -> handler.established(this, privateData);
      if (pair.device.fabric.passiveSideEstablishedLate()) {
        pair.heldEstablished = established;
      } else {
        pair.device.connectionEvents.add(established);
      }
      initiator.device.connectionEvents.add(
          handler -> handler.established(peerPending, privateData));
    }

    @Override
    public void reject() {
      Pending initiator = peerPending;
      initiator.pair.device.connectionEvents.add(
          handler -> handler.failed(initiator, "rejected by the listener"));
    }
  }

  /** A queue pair: pre-built request lists, a FIFO of posted receives, a peer. */
  static final class Pair implements QueuePair {
    private record Request(
        long id, RegisteredMemory memory, long offset, int length, boolean signaled) {}

    private final int number;
    private final QueuePairSpec spec;
    private final LoopbackVerbsDevice device;
    private final Requests sends;
    private final Requests receives;
    private final ArrayDeque<Request> posted = new ArrayDeque<>();
    private Pair peer;
    private boolean failed;
    private Consumer<ConnectionEventHandler> heldEstablished;

    Pair(int number, QueuePairSpec spec, LoopbackVerbsDevice device) {
      this.number = number;
      this.spec = spec;
      this.device = device;
      this.sends = new Requests(spec.sendQueueDepth(), spec.maxInlineBytes());
      this.receives = new Requests(spec.receiveQueueDepth(), Integer.MAX_VALUE);
    }

    @Override
    public int number() {
      return number;
    }

    @Override
    public WorkRequests sendRequests() {
      return sends;
    }

    @Override
    public WorkRequests receiveRequests() {
      return receives;
    }

    @Override
    public void postReceive(int count) throws VerbsException {
      if (posted.size() + count > spec.receiveQueueDepth()) {
        throw new VerbsException(
            "ibv_post_recv: receive queue of " + spec.receiveQueueDepth() + " is full");
      }
      for (int i = 0; i < count; i++) {
        posted.add(receives.get(i));
      }
    }

    @Override
    public void postSend(int count) {
      for (int i = 0; i < count && !failed; i++) {
        Request send = sends.get(i);
        CompletionStatus status = peer == null ? CompletionStatus.FLUSHED : peer.deliver(send);
        if (status != CompletionStatus.SUCCESS) {
          failed = true;
        }
        if (send.signaled() || status != CompletionStatus.SUCCESS) {
          queue(spec.sendCompletions()).add(this, send.id(), CompletionOpcode.SEND, status, 0);
        }
      }
    }

    /** A peer's send lands in the oldest posted receive. */
    private CompletionStatus deliver(Request send) {
      Request receive = posted.poll();
      if (receive == null) {
        device.fabric.countReceiverNotReady();
        return CompletionStatus.RECEIVER_NOT_READY;
      }
      if (send.length() > receive.length()) {
        return CompletionStatus.LOCAL_LENGTH_ERROR;
      }
      MemorySegment.copy(
          send.memory().segment(),
          send.offset(),
          receive.memory().segment(),
          receive.offset(),
          send.length());
      queue(spec.receiveCompletions())
          .add(
              this,
              receive.id(),
              CompletionOpcode.RECEIVE,
              CompletionStatus.SUCCESS,
              send.length());
      return CompletionStatus.SUCCESS;
    }

    /** A completion of this pair was polled: an ESTABLISHED held back until now follows. */
    private void releaseEstablished() {
      if (heldEstablished != null) {
        device.connectionEvents.add(heldEstablished);
        heldEstablished = null;
      }
    }

    private static Queue queue(CompletionQueue queue) {
      return (Queue) queue;
    }

    @Override
    public void disconnect() {
      close();
    }

    @Override
    public void close() {
      Pair other = peer;
      peer = null;
      posted.clear();
      if (other != null && other.peer == this) {
        other.peer = null;
        other.device.connectionEvents.add(handler -> handler.disconnected(other));
      }
    }

    /** Work requests of any memory, reused by index as a real binding's native lists are. */
    private static final class Requests extends WorkRequestList<RegisteredMemory> {

      Requests(int capacity, int inlineLimit) {
        super(capacity, inlineLimit);
      }

      Request get(int index) {
        return new Request(
            workRequestId(index), memory(index), offset(index), length(index), signaled(index));
      }

      @Override
      protected RegisteredMemory registered(RegisteredMemory memory) {
        return memory;
      }
    }
  }
}
