package io.rubinbft.net.verbs.provider;

import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.jspecify.annotations.Nullable;

/**
 * The transport over any {@link VerbsDevice} (rdma-core, DiSNI, or the shared-memory emulation):
 * one send and one receive completion queue shared by all links, polled from the selector's thread,
 * and rdma_cm-style connection events. Between polls with nothing to do it backs off (spin, yield,
 * then park), as Aeron's idle strategies do; on a device with an {@link EventChannel} (shm's
 * doorbell; rdma-core's completion channel with rdma_cm's event channel) it backs off until {@value
 * #BUSY_POLL_NANOS} ns after its last event and then sleeps in the kernel until the device has
 * something, so an idle poller costs next to no CPU; on one without (DiSNI, which does not expose
 * its channels' descriptors) it keeps backing off, parking at most its longest park at a time.
 *
 * <p>Each poll reports in this order: links that came up, links with frames, links that broke. A
 * link's completions are recorded as they come but reported only once the link is up: on real RDMA
 * the passive side can see a receive (or a failure) complete before its ESTABLISHED event, because
 * the active side may send as soon as it is established itself. A failure is reported after the
 * frames that arrived before it, so a peer's CLOSE frame is read before the flush that follows it.
 */
public final class VerbsTransport implements Transport {

  private static final byte[] NO_PRIVATE_DATA = new byte[0];
  private static final long MAX_PARK_NANOS = 100_000;

  /**
   * How long after its last event a poller with an event channel keeps polling before it sleeps: a
   * reply that comes within this (a round trip on shm takes a few microseconds) is caught without
   * the doorbell's system calls on either side. Counted from the last event, not from the poll's
   * start, so a poller that wakes from a quiet timeout goes straight back to sleep.
   */
  private static final long BUSY_POLL_NANOS = 50_000;

  private final VerbsDevice device;
  private final CompletionQueue sendCompletions;
  private final CompletionQueue receiveCompletions;
  private final int completionCapacity;
  private final int maxInlineBytes;
  private final Int2ObjectHashMap<VerbsLink> byQueuePair = new Int2ObjectHashMap<>();
  private final IdentityHashMap<ConnectionListener, VerbsListener> listeners =
      new IdentityHashMap<>();
  private final IdentityHashMap<PendingConnection, PendingLink> pending = new IdentityHashMap<>();
  private final List<VerbsLink> readable = new ArrayList<>();
  private final List<VerbsLink> broken = new ArrayList<>();
  private final Events connectionEvents = new Events();
  private final BackoffIdleStrategy idle;
  private final @Nullable EventChannel eventChannel;

  @SuppressWarnings("NullAway.Init") // set by open(), before any poll
  private LinkEvents events;

  private int reported;
  private long lastEventNanos = System.nanoTime();
  private volatile @Nullable Thread poller;
  private volatile boolean woken;

  /** A link on its way up, and the listener it arrived at (null for an outgoing link). */
  private record PendingLink(VerbsLink link, @Nullable VerbsListener listener) {}

  private VerbsTransport(
      VerbsDevice device,
      CompletionQueue sendCompletions,
      CompletionQueue receiveCompletions,
      int completionCapacity,
      int maxInlineBytes,
      long maxParkNanos) {
    this.device = device;
    this.sendCompletions = sendCompletions;
    this.receiveCompletions = receiveCompletions;
    this.completionCapacity = completionCapacity;
    this.maxInlineBytes = maxInlineBytes;
    this.idle = new BackoffIdleStrategy(100, 10, 1_000, maxParkNanos);
    this.eventChannel = device.eventChannel().orElse(null);
  }

  /**
   * A transport on {@code device} whose completion queues hold {@code completionCapacity} entries
   * (at least the sum of all links' slots) and whose sends up to {@code maxInlineBytes} go inline.
   */
  public static VerbsTransport open(VerbsDevice device, int completionCapacity, int maxInlineBytes)
      throws VerbsException {
    return open(device, completionCapacity, maxInlineBytes, MAX_PARK_NANOS);
  }

  /**
   * As {@link #open(VerbsDevice, int, int)}, parking at most {@code maxParkNanos} at a time while
   * waiting for a completion. On a device without an event channel (DiSNI) a poller has nothing to
   * block on: longer parks cost less CPU when idle and add up to that much latency to the first
   * message after a quiet spell. On a device with one (shm, rdma) it matters little: parks happen
   * only in the short back-off before the poller sleeps.
   */
  public static VerbsTransport open(
      VerbsDevice device, int completionCapacity, int maxInlineBytes, long maxParkNanos)
      throws VerbsException {
    CompletionQueue sends = device.createCompletionQueue(completionCapacity);
    CompletionQueue receives = device.createCompletionQueue(completionCapacity);
    return new VerbsTransport(
        device, sends, receives, completionCapacity, maxInlineBytes, maxParkNanos);
  }

  @Override
  public String name() {
    return "verbs:" + device.name();
  }

  @Override
  public LinkListener listen(InetSocketAddress address, LinkSizes sizes) throws IOException {
    ConnectionListener listener = device.listen(address, spec(sizes));
    VerbsListener wrapped = new VerbsListener(listener, sizes);
    listeners.put(listener, wrapped);
    return wrapped;
  }

  @Override
  public Link connect(InetSocketAddress address, LinkSizes sizes) throws IOException {
    PendingConnection connection = device.connect(address, spec(sizes), NO_PRIVATE_DATA);
    VerbsLink link = newLink(connection.queuePair(), sizes, address);
    pending.put(connection, new PendingLink(link, null));
    return link;
  }

  /**
   * Polls the connection events and both completion queues; with nothing to report and a timeout,
   * polls again with back-off (spin, yield, then park, at most the transport's longest park at a
   * time), and on a device with an event channel sleeps in it once {@value #BUSY_POLL_NANOS} ns
   * have passed since the last event, until something is reported, the timeout passes, or {@link
   * #wakeup} is called. Waiting here rather than returning to the selector keeps an idle selector
   * thread from running its whole loop thousands of times a second.
   */
  @Override
  public int poll(LinkEvents linkEvents, long timeoutNanos) throws IOException {
    long deadline = System.nanoTime() + timeoutNanos;
    poller = Thread.currentThread();
    while (true) {
      pollOnce(linkEvents);
      if (reported > 0
          || timeoutNanos <= 0
          || woken
          || (timeoutNanos != WAIT_FOREVER && System.nanoTime() - deadline >= 0)) {
        break;
      }
      if (eventChannel == null
          || System.nanoTime() - lastEventNanos < BUSY_POLL_NANOS
          || !eventChannel.arm()) {
        idle.idle();
        continue;
      }
      // Armed before this last look: what arrives after it rings the channel, so it is not lost.
      pollOnce(linkEvents);
      if (reported > 0 || woken) {
        eventChannel.disarm();
        break;
      }
      eventChannel.await(deadline - System.nanoTime());
    }
    if (reported > 0 || woken) {
      lastEventNanos = System.nanoTime();
    }
    woken = false;
    idle.reset();
    return reported;
  }

  private void pollOnce(LinkEvents linkEvents) throws IOException {
    this.events = linkEvents;
    reported = device.pollConnectionEvents(connectionEvents);
    reported += receiveCompletions.poll(this::onCompletion, completionCapacity);
    reported += sendCompletions.poll(this::onCompletion, completionCapacity);
    // A link may close while an earlier one is handled (the application closes it): skip it then.
    for (int i = 0; i < readable.size(); i++) {
      VerbsLink link = readable.get(i);
      if (link.isReportable()) {
        linkEvents.readable(link);
      }
    }
    readable.clear();
    for (int i = 0; i < broken.size(); i++) {
      VerbsLink link = broken.get(i);
      if (link.isReportable()) {
        linkEvents.closed(link, Objects.requireNonNullElse(link.failure(), "connection broken"));
      }
    }
    broken.clear();
  }

  /**
   * Ends a waiting {@link #poll} at once (its park or sleep is cut short), or the next one's wait.
   */
  @Override
  public void wakeup() {
    woken = true;
    Thread thread = poller;
    if (thread != null) {
      LockSupport.unpark(thread);
    }
    if (eventChannel != null) {
      eventChannel.wakeup();
    }
  }

  private void onCompletion(
      int queuePairNumber,
      long workRequestId,
      CompletionOpcode opcode,
      CompletionStatus status,
      int byteLength) {
    VerbsLink link = byQueuePair.get(queuePairNumber);
    if (link == null) {
      return; // A closed link's flushed requests.
    }
    if (status == CompletionStatus.FLUSHED) {
      link.onFailed("the queue pair went to the error state (" + opcode + " flushed)", false);
      markBroken(link);
    } else if (status != CompletionStatus.SUCCESS) {
      link.onFailed(opcode + " work request failed: " + status, true);
      markBroken(link);
    } else if (opcode == CompletionOpcode.RECEIVE) {
      link.onReceived(workRequestId, byteLength);
      markReadable(link);
    } else {
      link.onSendCompleted(workRequestId);
    }
  }

  /** Queues a readable report for this poll, once the link is up (held until then). */
  private void markReadable(VerbsLink link) {
    if (link.isReportable() && !readable.contains(link)) {
      readable.add(link);
    }
  }

  /** Queues a closed report for this poll, after the readable ones (held until the link is up). */
  private void markBroken(VerbsLink link) {
    if (link.isReportable() && !broken.contains(link)) {
      broken.add(link);
    }
  }

  /** The link is up: report what it recorded while it was not, in the usual order. */
  private void reportUp(VerbsLink link) {
    link.markUp();
    if (link.hasArrived()) {
      markReadable(link);
    }
    if (link.failure() != null) {
      markBroken(link);
    }
  }

  private VerbsLink newLink(QueuePair queuePair, LinkSizes sizes, InetSocketAddress remote)
      throws VerbsException {
    RegisteredMemory sendMemory = device.register((long) sizes.sendSlots() * sizes.maxFrameBytes());
    RegisteredMemory receiveMemory =
        device.register((long) sizes.receiveSlots() * sizes.maxFrameBytes());
    VerbsLink link =
        new VerbsLink(
            sizes,
            remote,
            queuePair,
            sendMemory,
            receiveMemory,
            maxInlineBytes,
            () -> byQueuePair.remove(queuePair.number()));
    byQueuePair.put(queuePair.number(), link);
    return link;
  }

  private QueuePairSpec spec(LinkSizes sizes) {
    return new QueuePairSpec(
        sizes.sendSlots(),
        sizes.receiveSlots(),
        maxInlineBytes,
        sendCompletions,
        receiveCompletions);
  }

  @Override
  public void close() {
    for (VerbsLink link : new ArrayList<>(byQueuePair.values())) {
      link.close();
    }
    listeners.values().forEach(VerbsListener::close);
    sendCompletions.close();
    receiveCompletions.close();
    device.close();
  }

  /** Connection events: accept every request at a known listener, report links as they come up. */
  private final class Events implements ConnectionEventHandler {

    @Override
    public void connectRequested(
        ConnectionListener listener, PendingConnection request, byte[] privateData) {
      VerbsListener known = listeners.get(listener);
      try {
        if (known == null) {
          request.reject();
          return;
        }
        VerbsLink link = newLink(request.queuePair(), known.sizes(), listener.localAddress());
        pending.put(request, new PendingLink(link, known));
        request.accept(NO_PRIVATE_DATA);
      } catch (VerbsException e) {
        throw new IllegalStateException("cannot answer a connection request: " + e.getMessage(), e);
      }
    }

    @Override
    public void established(PendingConnection connection, byte[] privateData) {
      PendingLink up = pending.remove(connection);
      if (up == null) {
        return;
      }
      if (up.listener() == null) {
        events.established(up.link());
      } else {
        events.accepted(up.listener(), up.link());
      }
      // Accepting may have refused the link (closed it): then nothing more is reported.
      reportUp(up.link());
    }

    @Override
    public void failed(PendingConnection connection, String reason) {
      PendingLink down = pending.remove(connection);
      if (down == null) {
        return;
      }
      if (down.listener() == null) {
        events.failed(down.link(), reason);
      } else {
        down.link().close();
      }
    }

    @Override
    public void disconnected(QueuePair queuePair) {
      VerbsLink link = byQueuePair.get(queuePair.number());
      if (link != null) {
        link.onFailed("peer disconnected", true);
        markBroken(link);
      }
    }
  }
}
