package io.rubinbft.orderer.cluster;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Interest;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.SelectionKey;
import io.rubinbft.net.Selector;
import io.rubinbft.net.ServerChannel;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.agrona.DirectBuffer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's replica-to-replica network: one rdma-net selector on one thread carries every
 * channel's consensus messages. Each node dials every peer it sends to and sends only on its own
 * outbound connections, so a pair of nodes has one connection per direction and no race decides
 * which to keep. Peers are authenticated by certificate (the handshake proves the key): inbound any
 * consenter's, on a dialled link only the dialled consenter's, never one outside its validity
 * period ({@link ClusterPeers}); every frame carries its channel's name; handlers map the
 * certificate to a replica of their channel.
 *
 * <p>No peer and no stranger can end the network thread: a link whose sending or receiving throws
 * is closed alone (counted, logged), a turn that fails outside any link is counted and the loop
 * goes on after a short pause; only an {@link Error} (the JVM failing) or {@link #close} ends it.
 * Unauthenticated connections are rdma-net's to bound (handshake deadline, caps per source and in
 * total, no rings before authentication).
 */
public final class ClusterNetwork implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterNetwork.class);

  private static final int MESSAGES_PER_POLL = 256;

  /**
   * The selector is the network thread's alone: it publishes a copy of its counters at most this
   * long after they change (and not again while nothing happens).
   */
  private static final long TRAFFIC_MILLIS = 200;

  /** A due time that never comes: the network thread then waits in select with no timeout. */
  private static final long NEVER = Long.MAX_VALUE;

  /**
   * The pause after a turn failed outside any link, so a lasting fault does not spin the thread.
   */
  private static final long FAILED_TURN_PAUSE_MILLIS = 100;

  /** How long close waits for the network thread, which sees the stop at its next wake-up. */
  private static final Duration STOP_DEADLINE = Duration.ofSeconds(5);

  /** Failed turns in a row per log line: about one a minute while a fault lasts. */
  private static final long FAILED_TURNS_PER_LOG = 60_000 / FAILED_TURN_PAUSE_MILLIS;

  private final Selector selector;
  private final ServerChannel server;
  private final ClusterPeers peers;
  private final CertificateValidity validity;
  private final int maxFrameBytes;
  private final long linkBudget;
  // Links already out of the map whose connection the network thread must close: at most one per
  // link a send created, so bounded by the peers sent to.
  private final Queue<PeerLink> disconnects = new ConcurrentLinkedQueue<>();
  private final Map<String, InboundHandler> handlers = new ConcurrentHashMap<>();
  // Senders add links (any thread); the network thread connects, flushes and forgets them.
  private final Map<InetSocketAddress, PeerLink> links = new ConcurrentHashMap<>();
  private final IdentityHashMap<Channel, PeerLink> linkOfChannel = new IdentityHashMap<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong droppedQueueFull = new AtomicLong();
  private final AtomicLong droppedOversized = new AtomicLong();
  private final AtomicLong droppedUnknownChannel = new AtomicLong();
  private final AtomicLong droppedMalformed = new AtomicLong();
  private final AtomicLong linksClosedOnError = new AtomicLong();
  private final AtomicLong networkErrors = new AtomicLong();
  private final List<PeerLink> failedLinks = new ArrayList<>();
  private long failedTurnsInARow;
  private volatile int connectedPeers;
  private volatile Set<InetSocketAddress> connectedAddresses = Set.of();
  private volatile @Nullable NetworkTraffic traffic;
  private long nextTrafficMillis;
  private boolean trafficChangedSincePublished;
  private final Worker worker;

  private ClusterNetwork(
      Selector selector,
      ClusterPeers peers,
      CertificateValidity validity,
      InetSocketAddress listen,
      int maxFrameBytes,
      long linkBudget)
      throws IOException {
    this.selector = selector;
    this.peers = peers;
    this.validity = validity;
    this.server = selector.listen(listen, inboundAuthenticator());
    this.maxFrameBytes = maxFrameBytes;
    this.linkBudget = linkBudget;
    server.key().interests(EnumSet.of(Interest.ACCEPT));
    this.worker =
        Worker.named("cluster-network")
            .notInterrupted()
            .wakeWith(selector::wakeup)
            .stopDeadline(STOP_DEADLINE)
            .unstarted(this::run);
  }

  /**
   * Listens at {@code listen} and starts the network thread, with each peer's frames bounded by
   * this JVM's {@link MemoryBudgets#peerLinkBytes}.
   *
   * @param peers the certificates accepted inbound and on each dialled address
   */
  public static ClusterNetwork start(
      Transport transport, ChannelConfig config, InetSocketAddress listen, ClusterPeers peers)
      throws IOException {
    return start(transport, config, listen, peers, MemoryBudgets.standard().peerLinkBytes());
  }

  /**
   * Listens at {@code listen} and starts the network thread.
   *
   * @param peers the certificates accepted inbound and on each dialled address
   * @param linkBudget the bytes of small frames (votes, status) that may wait for one peer; older
   *     ones are dropped. Large frames (proposals, answers) wait in a lane of their own, one
   *     transport message's worth, so neither kind pushes out the other ({@link OutboundQueue})
   */
  public static ClusterNetwork start(
      Transport transport,
      ChannelConfig config,
      InetSocketAddress listen,
      ClusterPeers peers,
      long linkBudget)
      throws IOException {
    return start(transport, config, listen, peers, linkBudget, Clock.systemUTC());
  }

  /** As above, with the clock certificates' validity is judged by (tests move it). */
  static ClusterNetwork start(
      Transport transport,
      ChannelConfig config,
      InetSocketAddress listen,
      ClusterPeers peers,
      long linkBudget,
      Clock clock)
      throws IOException {
    Selector selector = Selector.open(transport, config);
    ClusterNetwork network =
        new ClusterNetwork(
            selector,
            peers,
            new CertificateValidity(clock),
            listen,
            config.maxMessageBytes(),
            linkBudget);
    network.worker.start();
    return network;
  }

  /** Any consenter's certificate, within its validity period. */
  private PeerAuthenticator inboundAuthenticator() {
    return certificate ->
        validity.rejectReason(certificate).or(() -> peers.rejectInbound(certificate));
  }

  /** The certificate of the consenter at {@code dialled} only, within its validity period. */
  private PeerAuthenticator dialledAuthenticator(InetSocketAddress dialled) {
    return certificate ->
        validity.rejectReason(certificate).or(() -> peers.rejectDialled(dialled, certificate));
  }

  /** Where peers reach this node (the real port when 0 was asked for). */
  public InetSocketAddress localAddress() {
    return server.localAddress();
  }

  /** Routes {@code channel}'s messages to {@code handler}. */
  public void register(String channel, InboundHandler handler) {
    handlers.put(channel, handler);
  }

  public void unregister(String channel) {
    handlers.remove(channel);
  }

  /**
   * Sends {@code message} of {@code channel}'s epoch {@code epoch} to the peer at {@code peer},
   * from any thread, without blocking. The peer's frames are bounded by the link budget (small
   * frames) and one transport message (large ones): when a lane would exceed its bound the oldest
   * of it are dropped and counted (PBFT retransmits, a peer behind catches up by state transfer). A
   * frame larger than the transport carries is dropped and counted at once.
   */
  public void send(InetSocketAddress peer, String channel, long epoch, byte[] message) {
    byte[] frame = ClusterFrames.frame(channel, epoch, message);
    if (frame.length > maxFrameBytes) {
      droppedOversized.incrementAndGet();
      LOG.warn(
          "dropped a frame of {} bytes for channel {} to {}: the transport carries at most {}",
          frame.length,
          channel,
          peer,
          maxFrameBytes);
      return;
    }
    droppedQueueFull.addAndGet(
        links
            .computeIfAbsent(peer, address -> new PeerLink(address, linkBudget, maxFrameBytes))
            .enqueue(frame));
    selector.wakeup();
  }

  /**
   * The bytes of frames waiting for {@code peer}: at most the link budget and one transport
   * message.
   */
  public long queuedBytes(InetSocketAddress peer) {
    PeerLink link = links.get(peer);
    return link == null ? 0 : link.queuedBytes();
  }

  /**
   * Closes this node's connection to {@code peer} and drops what waits for it, e.g. a consenter
   * removed from a channel. A later send to it (another channel it still serves) dials again.
   */
  public void disconnect(InetSocketAddress peer) {
    // Out of the map at once, so a send after this call goes to a new link.
    PeerLink link = links.remove(peer);
    if (link != null) {
      disconnects.add(link);
      selector.wakeup();
    }
  }

  /** Why the network thread stopped, if it stopped on its own: the node cannot reach its peers. */
  public Optional<String> failure() {
    return worker.failure().map(e -> "cluster network stopped: " + e);
  }

  public ClusterStats stats() {
    return new ClusterStats(
        connectedPeers,
        sent.get(),
        received.get(),
        droppedQueueFull.get(),
        droppedUnknownChannel.get(),
        droppedMalformed.get(),
        droppedOversized.get(),
        linksClosedOnError.get(),
        networkErrors.get(),
        validity.refused());
  }

  /**
   * The peers this node's outbound connections are open to, as of at most {@value #TRAFFIC_MILLIS}
   * ms after their last change: the addresses {@link #send} was given.
   */
  public Set<InetSocketAddress> connectedAddresses() {
    return connectedAddresses;
  }

  /**
   * rdma-net's counters as of at most {@value #TRAFFIC_MILLIS} ms after their last change; empty
   * before the first.
   */
  public Optional<NetworkTraffic> traffic() {
    return Optional.ofNullable(traffic);
  }

  @Override
  public void close() {
    worker.close();
  }

  /**
   * The network thread's loop. Its wait in select ends on I/O, on the next periodic duty (a
   * reconnect's back-off ending, a traffic copy due), or on {@link Selector#wakeup}, which every
   * thread that queues a request calls after queuing it; the queue is drained after every select,
   * so a request queued while the thread waits or works is handled in the next turn.
   */
  private void run(Worker self) {
    try (selector) {
      while (!self.stopRequested()) {
        turn();
      }
    } finally {
      links.values().forEach(PeerLink::close);
      connectedAddresses = Set.of();
      server.close();
    }
  }

  /**
   * One turn of the loop. A failure that no single link is to blame for (e.g. out of file
   * descriptors when accepting) is counted and logged, and the next turn comes after a pause.
   */
  private void turn() {
    try {
      long now = System.currentTimeMillis();
      drainDisconnects();
      for (PeerLink link : links.values()) {
        try {
          connectIfNeeded(link, now);
          sent.addAndGet(link.flush(droppedOversized::incrementAndGet));
        } catch (RuntimeException e) {
          failedLinks.add(link);
          LOG.warn("closing the link to {} after an error: {}", link.address(), e.toString(), e);
        }
      }
      forgetFailedLinks();
      selectUntil(nextDutyMillis());
      forgetFailedLinks();
      connectedPeers = countOpenLinks();
      publishTrafficIfDue(System.currentTimeMillis());
      failedTurnsInARow = 0;
    } catch (IOException | RuntimeException e) {
      networkErrors.incrementAndGet();
      // A lasting fault fails every turn: its first failure is logged, then one in a minute's.
      if (failedTurnsInARow++ % FAILED_TURNS_PER_LOG == 0) {
        LOG.error(
            "a turn of the cluster network failed ({} in a row), going on: {}",
            failedTurnsInARow,
            e.toString(),
            e);
      }
      pauseAfterFailedTurn();
    }
  }

  /**
   * Closes the links whose sending or receiving threw, and drops what was queued for them (the
   * frame that threw among it); the next send to such a peer dials it again.
   */
  private void forgetFailedLinks() {
    for (PeerLink link : failedLinks) {
      linksClosedOnError.incrementAndGet();
      // Out of the map only if no sender replaced it since: a send after this dials again.
      links.remove(link.address(), link);
      linkOfChannel.values().remove(link);
      link.close();
    }
    failedLinks.clear();
  }

  private static void pauseAfterFailedTurn() {
    try {
      Thread.sleep(FAILED_TURN_PAUSE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** When the loop must turn again though no I/O comes and no request is queued. */
  private long nextDutyMillis() {
    long due = trafficChangedSincePublished ? nextTrafficMillis : NEVER;
    for (PeerLink link : links.values()) {
      due = Math.min(due, link.reconnectDueMillis());
    }
    return due;
  }

  /** One select that waits until {@code dueMillis} at the latest (no wait once it has passed). */
  private void selectUntil(long dueMillis) throws IOException {
    if (dueMillis == NEVER) {
      selector.select(this::onReady);
    } else {
      selector.select(this::onReady, dueMillis - System.currentTimeMillis());
    }
  }

  /**
   * Publishes a copy of the counters and open links when the last is {@value #TRAFFIC_MILLIS} ms
   * old; a turn before that leaves one due, so the last change is published even if nothing else
   * happens, and an idle network publishes nothing.
   */
  private void publishTrafficIfDue(long now) {
    if (now < nextTrafficMillis) {
      trafficChangedSincePublished = true;
      return;
    }
    traffic = new NetworkTraffic(selector.stats(), links.keySet());
    connectedAddresses = openLinkAddresses();
    nextTrafficMillis = now + TRAFFIC_MILLIS;
    trafficChangedSincePublished = false;
  }

  private int countOpenLinks() {
    int open = 0;
    for (PeerLink link : links.values()) {
      open += link.isOpen() ? 1 : 0;
    }
    return open;
  }

  private Set<InetSocketAddress> openLinkAddresses() {
    return links.values().stream()
        .filter(PeerLink::isOpen)
        .map(PeerLink::address)
        .collect(Collectors.toUnmodifiableSet());
  }

  private void drainDisconnects() {
    for (PeerLink link = disconnects.poll(); link != null; link = disconnects.poll()) {
      linkOfChannel.values().remove(link);
      link.close();
    }
  }

  private void connectIfNeeded(PeerLink link, long now) {
    if (!link.needsConnect(now)) {
      return;
    }
    // The link's previous channel, if any, is closed: forget it before dialing again.
    linkOfChannel.values().remove(link);
    try {
      Channel channel = selector.connect(link.address(), dialledAuthenticator(link.address()));
      channel.key().interests(EnumSet.of(Interest.CONNECT));
      linkOfChannel.put(channel, link);
      link.connected(channel, now);
    } catch (IOException e) {
      link.connected(null, now);
      LOG.debug("connecting to {} failed: {}", link.address(), e.toString());
    }
  }

  private void onReady(SelectionKey key) {
    if (key.isReady(Interest.ACCEPT)) {
      for (Optional<Channel> in = server.accept(); in.isPresent(); in = server.accept()) {
        in.get().key().interests(EnumSet.of(Interest.RECEIVE));
      }
      return;
    }
    Channel channel = key.channel();
    PeerLink link = linkOfChannel.get(channel);
    try {
      if (key.isReady(Interest.RECEIVE)) {
        X509Certificate peer = channel.peerCertificate().orElse(null);
        channel.poll(
            (buffer, offset, length) -> dispatch(peer, buffer, offset, length), MESSAGES_PER_POLL);
      }
      if (link != null && (key.isReady(Interest.SEND) || key.isReady(Interest.CONNECT))) {
        sent.addAndGet(link.flush(droppedOversized::incrementAndGet));
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "closing the channel with {} after an error: {}",
          channel.remoteAddress(),
          e.toString(),
          e);
      if (link != null) {
        failedLinks.add(link);
      } else {
        linksClosedOnError.incrementAndGet();
        channel.close();
      }
    }
  }

  private void dispatch(
      @Nullable X509Certificate peer, DirectBuffer buffer, int offset, int length) {
    Optional<ClusterFrames.Parsed> frame = ClusterFrames.parse(buffer, offset, length);
    if (frame.isEmpty() || peer == null) {
      droppedMalformed.incrementAndGet();
      return;
    }
    InboundHandler handler = handlers.get(frame.get().channel());
    if (handler == null) {
      droppedUnknownChannel.incrementAndGet();
      return;
    }
    byte[] message = new byte[frame.get().messageLength()];
    buffer.getBytes(offset + frame.get().messageOffset(), message);
    received.incrementAndGet();
    handler.onMessage(peer, frame.get().epoch(), message);
  }
}
