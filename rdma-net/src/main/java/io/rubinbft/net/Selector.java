package io.rubinbft.net;

import io.rubinbft.net.security.Handshake;
import io.rubinbft.net.security.Role;
import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Multiplexes all of a replica's channels on one thread, after java.nio's selector but carrying
 * whole messages over any {@link Transport}. Each {@link #select} flushes what the channels queued
 * (data, fragments, credit), performs the transport's I/O, and hands every key that is ready for
 * one of its interests to the handler. Not thread-safe: one thread owns a selector and its
 * channels; only {@link #wakeup} may be called from other threads.
 *
 * <p>Nothing a peer or a stranger sends ends the selector: a channel whose handling throws is
 * closed (counted in {@link SelectorStats#linksFailedOnError}); a channel not authenticated both
 * ways within {@link ChannelConfig#handshakeTimeoutMillis} is closed; incoming connections not yet
 * authenticated are capped in total and per source address, a new one closing the oldest.
 */
public final class Selector implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Selector.class);

  private final Transport transport;
  private final ChannelConfig config;
  private final SecureRandom random;
  private final List<Connection> connections = new ArrayList<>();
  private final List<Listener> listeners = new ArrayList<>();

  /** Incoming connections not yet authenticated both ways, oldest first. */
  private final Map<Connection, Listener> awaitingAccept = new LinkedHashMap<>();

  private final Set<InetSocketAddress> connectedBefore = new HashSet<>();
  private final EnumSet<Interest> ready = EnumSet.noneOf(Interest.class);
  private final long[] droppedByFinished = new long[DropReason.values().length];
  private final Events events = new Events();
  private final AtomicBoolean wakeupPending = new AtomicBoolean();
  private long connectsStarted;
  private long reconnects;
  private long accepted;
  private long handshakesRejected;
  private long acceptsRefused;
  private long handshakesTimedOut;
  private long linksFailedOnError;

  private Selector(Transport transport, ChannelConfig config, SecureRandom random) {
    this.transport = transport;
    this.config = config;
    this.random = random;
  }

  /** A selector whose channels all use {@code transport} and {@code config}. */
  public static Selector open(Transport transport, ChannelConfig config) {
    return new Selector(transport, config, new SecureRandom());
  }

  /** Listens at {@code address}; peers are accepted when {@code authenticator} accepts them. */
  public ServerChannel listen(InetSocketAddress address, PeerAuthenticator authenticator)
      throws IOException {
    LinkListener linkListener = transport.listen(address, config.linkSizes());
    Listener listener = new Listener(linkListener, authenticator, config.acceptBacklog());
    listeners.add(listener);
    return listener;
  }

  /**
   * Starts connecting to {@code address} without blocking; the key becomes ready for CONNECT when
   * the channel is open (authenticated both ways) or has failed.
   */
  public Channel connect(InetSocketAddress address, PeerAuthenticator authenticator)
      throws IOException {
    Link link = transport.connect(address, config.linkSizes());
    Connection connection = newConnection(link, Role.INITIATOR, authenticator);
    connectsStarted++;
    if (!connectedBefore.add(address)) {
      reconnects++;
    }
    return connection;
  }

  /** {@link #select} without waiting. */
  public int selectNow(KeyHandler handler) throws IOException {
    return select(handler, 0);
  }

  /**
   * Does one turn of I/O and hands each ready key to {@code handler}; when none is ready, waits up
   * to {@code timeoutMillis} for one, or until {@link #wakeup}. Returns how many keys were handed
   * over.
   */
  public int select(KeyHandler handler, long timeoutMillis) throws IOException {
    return turn(handler, timeoutMillis > 0 ? TimeUnit.MILLISECONDS.toNanos(timeoutMillis) : 0);
  }

  /**
   * {@link #select(KeyHandler, long)} with no timeout, as java.nio's {@code select()}: when no key
   * is ready, waits until one is or until {@link #wakeup}. On tcp the wait is an epoll_wait with no
   * timer, which wakes sooner than a timed one; a thread that must also notice other work calls
   * {@link #wakeup} when it queues it.
   */
  public int select(KeyHandler handler) throws IOException {
    return turn(handler, Transport.WAIT_FOREVER);
  }

  private int turn(KeyHandler handler, long timeoutNanos) throws IOException {
    dutyCycles();
    // One poll per turn: a waiting poll returns as soon as the transport has something, so a
    // non-waiting poll before it would only add a system call (an epoll_wait on tcp) to every
    // message a waiting selector receives. It may wait only when no key is ready already (frames
    // held, credit for SEND). The flag is cleared only here, just before waiting: a wakeup that
    // came
    // earlier keeps this select from waiting.
    boolean wait = timeoutNanos > 0 && !anyKeyReady() && !wakeupPending.getAndSet(false);
    transport.poll(events, wait ? Math.min(timeoutNanos, untilNextHandshakeDeadline()) : 0);
    closeLateHandshakes();
    dutyCycles();
    int selected = dispatch(handler);
    forgetFinished();
    return selected;
  }

  /**
   * Makes a {@link #select} that is waiting return at once, or the next one not wait, so another
   * thread that queued work for the selector's thread gets it handled now. Any thread may call it;
   * calls while one is pending cost no system call.
   */
  public void wakeup() {
    if (!wakeupPending.get() && !wakeupPending.getAndSet(true)) {
      transport.wakeup();
    }
  }

  /** Hands queued frames of every channel to the transport now (select does it too). */
  public void flush() {
    dutyCycles();
  }

  public SelectorStats stats() {
    long[] dropped = droppedByFinished.clone();
    List<ChannelStats> channels = new ArrayList<>(connections.size());
    for (Connection connection : connections) {
      connection.counters().addDropsTo(dropped);
      channels.add(connection.stats());
    }
    return new SelectorStats(
        transport.name(),
        connectsStarted,
        reconnects,
        accepted,
        handshakesRejected,
        acceptsRefused,
        handshakesTimedOut,
        linksFailedOnError,
        ChannelCounters.asMap(dropped),
        channels);
  }

  /** Closes every channel and the transport. */
  @Override
  public void close() {
    for (Listener listener : List.copyOf(listeners)) {
      listener.close();
    }
    for (Connection connection : List.copyOf(connections)) {
      connection.close();
    }
    transport.close();
  }

  // ---- called by channels ----

  void onOpened(Connection connection) {
    Listener listener = awaitingAccept.remove(connection);
    if (listener == null) {
      return;
    }
    if (listener.offer(connection)) {
      accepted++;
    } else {
      acceptsRefused++;
      connection.close();
    }
  }

  void onClosed(Connection connection) {
    awaitingAccept.remove(connection);
  }

  void onHandshakeRejected() {
    handshakesRejected++;
  }

  // ---- internals ----

  private Connection newConnection(Link link, Role role, PeerAuthenticator authenticator) {
    Handshake handshake =
        new Handshake(config.identity(), role, authenticator, random, transport.family());
    long deadline =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.handshakeTimeoutMillis());
    Connection connection = new Connection(this, link, role, handshake, config, deadline);
    connections.add(connection);
    return connection;
  }

  private void dutyCycles() {
    for (int i = 0; i < connections.size(); i++) {
      guarded(connections.get(i), Connection::dutyCycle);
    }
  }

  /** Runs {@code step} of {@code connection}'s handling, closing only that channel if it throws. */
  private void guarded(Connection connection, Consumer<Connection> step) {
    try {
      step.accept(connection);
    } catch (RuntimeException e) {
      failOnError(connection, e);
    }
  }

  /**
   * Closes a channel whose handling threw: whatever its peer sent or did, only this channel pays.
   */
  private void failOnError(Connection connection, RuntimeException error) {
    linksFailedOnError++;
    LOG.warn(
        "closing the channel to {} after an error in it: {}",
        connection.remoteAddress(),
        error.toString(),
        error);
    try {
      connection.fail("closed after an error: " + error);
    } catch (RuntimeException closing) {
      LOG.warn("closing the channel to {} failed too: {}", connection.remoteAddress(), closing);
    }
  }

  /** How long until the earliest handshake deadline, {@link Transport#WAIT_FOREVER} if none. */
  private long untilNextHandshakeDeadline() {
    long now = System.nanoTime();
    long until = Transport.WAIT_FOREVER;
    for (int i = 0; i < connections.size(); i++) {
      Connection connection = connections.get(i);
      if (isHandshaking(connection)) {
        until = Math.min(until, Math.max(0, connection.handshakeDeadlineNanos() - now));
      }
    }
    return until;
  }

  /** Closes every channel whose handshake deadline has passed. */
  private void closeLateHandshakes() {
    long now = System.nanoTime();
    for (int i = 0; i < connections.size(); i++) {
      Connection connection = connections.get(i);
      if (isHandshaking(connection) && now - connection.handshakeDeadlineNanos() >= 0) {
        handshakesTimedOut++;
        connection.fail(
            "not authenticated within the handshake deadline of "
                + config.handshakeTimeoutMillis()
                + " ms");
      }
    }
  }

  private static boolean isHandshaking(Connection connection) {
    ChannelState state = connection.state();
    return state == ChannelState.CONNECTING || state == ChannelState.HANDSHAKING;
  }

  /**
   * Makes room for one more unauthenticated incoming connection from {@code source}: closes that
   * source's oldest when it has its share, else the oldest of all when the backlog is full. The
   * oldest goes rather than the newest, so connections a stranger opened and left idle give way to
   * a peer that handshakes at once.
   */
  private void makeRoomForAccept(InetAddress source) {
    Connection oldestOfSource = null;
    int ofSource = 0;
    for (Connection waiting : awaitingAccept.keySet()) {
      if (source.equals(waiting.remoteAddress().getAddress())) {
        oldestOfSource = oldestOfSource == null ? waiting : oldestOfSource;
        ofSource++;
      }
    }
    Connection evicted = null;
    if (ofSource >= config.acceptBacklogPerSource()) {
      evicted = oldestOfSource;
    } else if (awaitingAccept.size() >= config.acceptBacklog()) {
      evicted = awaitingAccept.keySet().iterator().next();
    }
    if (evicted != null) {
      acceptsRefused++;
      evicted.fail("closed unauthenticated to make room for a newer connection");
    }
  }

  /** Whether a key would be handed over without any new I/O. */
  private boolean anyKeyReady() {
    for (int i = 0; i < listeners.size(); i++) {
      if (isAcceptable(listeners.get(i))) {
        return true;
      }
    }
    for (int i = 0; i < connections.size(); i++) {
      if (fillReady(connections.get(i))) {
        return true;
      }
    }
    return false;
  }

  private int dispatch(KeyHandler handler) {
    int selected = 0;
    int listenerCount = listeners.size();
    for (int i = 0; i < listenerCount; i++) {
      Listener listener = listeners.get(i);
      if (isAcceptable(listener)) {
        SelectionKey key = listener.key();
        key.readySet().clear();
        key.readySet().add(Interest.ACCEPT);
        handler.onReady(key);
        selected++;
      }
    }
    int connectionCount = connections.size();
    for (int i = 0; i < connectionCount; i++) {
      selected += dispatch(connections.get(i), handler);
    }
    return selected;
  }

  private static boolean isAcceptable(Listener listener) {
    return !listener.isClosed()
        && listener.key().interested(Interest.ACCEPT)
        && listener.hasAcceptable();
  }

  /** Fills {@link #ready} with what the connection is ready for and its key is interested in. */
  private boolean fillReady(Connection connection) {
    connection.readiness(ready);
    ready.retainAll(connection.key().interests());
    return !ready.isEmpty();
  }

  private int dispatch(Connection connection, KeyHandler handler) {
    if (!fillReady(connection)) {
      return 0;
    }
    SelectionKey key = connection.key();
    key.readySet().clear();
    key.readySet().addAll(ready);
    connection.reported(ready);
    handler.onReady(key);
    return 1;
  }

  private void forgetFinished() {
    listeners.removeIf(Listener::isClosed);
    connections.removeIf(
        connection -> {
          if (!connection.finished()) {
            return false;
          }
          connection.counters().addDropsTo(droppedByFinished);
          connection.key().invalidate();
          awaitingAccept.remove(connection);
          return true;
        });
  }

  /** Routes transport events to the channel or listener attached to the link. */
  private final class Events implements LinkEvents {

    @Override
    public void accepted(LinkListener linkListener, Link link) {
      Listener listener = (Listener) linkListener.attachment();
      makeRoomForAccept(link.remoteAddress().getAddress());
      Connection connection = newConnection(link, Role.ACCEPTOR, listener.authenticator());
      awaitingAccept.put(connection, listener);
      guarded(connection, Connection::onLinkEstablished);
    }

    @Override
    public void established(Link link) {
      guarded((Connection) link.attachment(), Connection::onLinkEstablished);
    }

    @Override
    public void failed(Link link, String reason) {
      ((Connection) link.attachment()).fail("connect failed: " + reason);
    }

    @Override
    public void readable(Link link) {
      guarded((Connection) link.attachment(), Connection::onReadable);
    }

    @Override
    public void writable(Link link) {
      guarded((Connection) link.attachment(), Connection::dutyCycle);
    }

    @Override
    public void closed(Link link, String reason) {
      ((Connection) link.attachment()).fail(reason);
    }
  }
}
