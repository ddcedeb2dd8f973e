package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The rdma_cm of the shared-memory device: listeners, outgoing requests, answers, and watching
 * established pairs for a peer that disconnected or died. Connection setup makes system calls
 * (files, mappings, lock probes); a poll with nothing to do reads a few shared words and, once per
 * liveness interval, probes each peer's process.
 */
final class ShmConnections {

  /** Ports tried for a listener asked to bind port 0, as the kernel's ephemeral range. */
  private static final int FIRST_EPHEMERAL_PORT = 32768;

  private static final int LAST_PORT = 65535;

  private final ShmVerbsDevice device;
  private final DeviceDirectory directory;
  private final Liveness liveness;
  private final long livenessIntervalNanos;
  private final List<ShmConnectionListener> listeners = new ArrayList<>();
  private final List<ShmPendingConnection> outgoing = new ArrayList<>();
  private final ArrayDeque<Established> establishedEvents = new ArrayDeque<>();
  private final List<ShmQueuePair> connected = new ArrayList<>();
  private long lastLivenessCheck = System.nanoTime();

  private record Established(ShmPendingConnection connection, byte[] privateData) {}

  ShmConnections(ShmVerbsDevice device, DeviceDirectory directory, Liveness liveness) {
    this.device = device;
    this.directory = directory;
    this.liveness = liveness;
    this.livenessIntervalNanos = device.options().livenessCheckInterval().toNanos();
  }

  void checkPrivateData(byte[] privateData) throws VerbsException {
    if (privateData.length > QueuePairFileDescriptor.MAX_PRIVATE_DATA) {
      throw new VerbsException(
          "private data is "
              + privateData.length
              + " bytes but at most "
              + QueuePairFileDescriptor.MAX_PRIVATE_DATA
              + " fit");
    }
  }

  ConnectionListener listen(InetSocketAddress address, QueuePairSpec spec) throws VerbsException {
    device.checkSpec(spec);
    String host = endpointHost(address);
    String shown = address.getHostString();
    int port =
        directory.underSetupLock(
            () -> {
              if (address.getPort() != 0) {
                if (!claimListenerName(host, address.getPort())) {
                  throw new VerbsException(
                      "shm address " + shown + ":" + address.getPort() + " is in use");
                }
                return address.getPort();
              }
              for (int candidate = FIRST_EPHEMERAL_PORT; candidate <= LAST_PORT; candidate++) {
                if (claimListenerName(host, candidate)) {
                  return candidate;
                }
              }
              throw new VerbsException(
                  "no free shm port for " + shown + " under " + directory.root());
            });
    Path path = directory.listener(host, port);
    int backlog = device.options().listenBacklog();
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    try {
      MemorySegment segment = directory.createMapped(path, ListenerFile.fileBytes(backlog), arena);
      ListenerFile file = ListenerFile.initialize(segment, liveness.self(), backlog);
      ShmConnectionListener listener =
          new ShmConnectionListener(this, withPort(address, port), spec, file, arena, path);
      listeners.add(listener);
      return listener;
    } catch (VerbsException e) {
      arena.close();
      throw e;
    }
  }

  /**
   * The host part of an endpoint's file name. Every shm endpoint is on this host, so the wildcard
   * and loopback addresses name the same endpoint ("local"), as a connect to 127.0.0.1 reaches a
   * TCP listener on 0.0.0.0; other addresses are named by their numeric form.
   */
  static String endpointHost(InetSocketAddress address) {
    InetAddress ip = address.getAddress();
    if (ip == null) {
      return address.getHostString();
    }
    return ip.isAnyLocalAddress() || ip.isLoopbackAddress() ? "local" : ip.getHostAddress();
  }

  private static InetSocketAddress withPort(InetSocketAddress address, int port) {
    return address.isUnresolved()
        ? InetSocketAddress.createUnresolved(address.getHostString(), port)
        : new InetSocketAddress(address.getAddress(), port);
  }

  /**
   * True when no live listener owns {@code host:port}; removes a dead owner's file. Runs under the
   * setup lock, and the caller creates the file before releasing it, so two cannot both claim.
   */
  private boolean claimListenerName(String host, int port) throws VerbsException {
    Path path = directory.listener(host, port);
    if (!Files.exists(path)) {
      return true;
    }
    try (Arena arena = Arena.ofConfined()) {
      ListenerFile existing = new ListenerFile(directory.mapExisting(path, arena));
      if (existing.invalidReason().isEmpty()
          && existing.isListening()
          && liveness.isAlive(existing.owner())) {
        return false;
      }
    } catch (VerbsException e) {
      // Vanished or unreadable: whoever made it is not listening there.
    }
    DeviceDirectory.deleteQuietly(path);
    return true;
  }

  PendingConnection connect(InetSocketAddress address, QueuePairSpec spec, byte[] privateData)
      throws VerbsException {
    checkPrivateData(privateData);
    ShmQueuePair pair = device.createQueuePair(spec);
    QueuePairFile own = pair.ownFile();
    own.writePrivateData(privateData);
    own.publishConnectionState(ConnectionState.REQUESTED);
    String target = address.getHostString() + ":" + address.getPort();
    Path path = directory.listener(endpointHost(address), address.getPort());
    ListenerFile listener = null;
    String failure = null;
    try {
      listener = new ListenerFile(directory.mapExisting(path, pair.arena()));
      Optional<String> invalid = listener.invalidReason();
      if (invalid.isPresent()) {
        failure = "the shm endpoint " + target + " is unusable: " + invalid.get();
      } else if (!listener.isListening() || !liveness.isAlive(listener.owner())) {
        failure = "the shm listener at " + target + " is closed";
      } else {
        // The listener's device will be the peer: its doorbell serves the request and the pair.
        pair.useDoorbellOf(listener.owner().deviceKey());
        if (listener.offer(own.owner().deviceKey(), pair.number())) {
          pair.ringPeer();
        } else {
          failure = "the shm listener at " + target + " has a full backlog";
        }
      }
    } catch (VerbsException e) {
      failure = "no shm listener at " + target + " under " + directory.root();
    }
    ShmPendingConnection connection =
        ShmPendingConnection.outgoing(this, pair, target, failure == null ? listener : null);
    if (failure != null) {
      connection.failBeforeSent(failure);
    }
    outgoing.add(connection);
    return connection;
  }

  /**
   * How long until the next liveness probe of a peer is due: a sleeping poller wakes for it, since
   * a dead process rings nobody. Long.MAX_VALUE when there is no peer to probe.
   */
  long nanosUntilLivenessCheck() {
    if (connected.isEmpty() && outgoing.isEmpty()) {
      return Long.MAX_VALUE;
    }
    return lastLivenessCheck + livenessIntervalNanos - System.nanoTime();
  }

  /** Makes the next poll probe every peer: one of their doorbell connections hung up. */
  void checkLivenessNow() {
    lastLivenessCheck = System.nanoTime() - livenessIntervalNanos;
  }

  void established(ShmPendingConnection connection, byte[] privateData) {
    establishedEvents.add(new Established(connection, privateData));
    connected.add(connection.queuePair());
  }

  void forget(ShmConnectionListener listener) {
    listeners.remove(listener);
  }

  /** Closes the listeners; the device closes the queue pairs. */
  void close() {
    List.copyOf(listeners).forEach(ShmConnectionListener::close);
  }

  int poll(ConnectionEventHandler handler) {
    long now = System.nanoTime();
    boolean livenessDue = now - lastLivenessCheck >= livenessIntervalNanos;
    if (livenessDue) {
      lastLivenessCheck = now;
    }
    int events = 0;
    for (int i = listeners.size() - 1; i >= 0; i = Math.min(i, listeners.size()) - 1) {
      ShmConnectionListener listener = listeners.get(i);
      events += listener.drain((key, file) -> pickUp(listener, key, file, handler));
    }
    for (int i = outgoing.size() - 1; i >= 0; i = Math.min(i, outgoing.size()) - 1) {
      ShmPendingConnection connection = outgoing.get(i);
      if (pollOutgoing(connection, handler, livenessDue)) {
        outgoing.remove(connection);
        events++;
      }
    }
    while (!establishedEvents.isEmpty()) {
      Established event = establishedEvents.poll();
      handler.established(event.connection(), event.privateData());
      events++;
    }
    for (int i = connected.size() - 1; i >= 0; i = Math.min(i, connected.size()) - 1) {
      events += watch(connected.get(i), handler, livenessDue);
    }
    connected.removeIf(ShmQueuePair::isClosed);
    return events;
  }

  /** Watches an established pair; reports its failure once, whoever caused it. */
  private int watch(ShmQueuePair pair, ConnectionEventHandler handler, boolean livenessDue) {
    if (pair.isClosed()) {
      return 0;
    }
    pair.checkPeer();
    if (livenessDue && !liveness.isAlive(pair.peerFile().owner())) {
      pair.peerUnreachable();
    }
    if (pair.takeUnreportedFailure()) {
      handler.disconnected(pair);
      return 1;
    }
    return 0;
  }

  /** Turns a request from a listener's inbox into a connect-requested event; false if dropped. */
  private boolean pickUp(
      ShmConnectionListener listener,
      long connectorKey,
      long connectorFile,
      ConnectionEventHandler handler) {
    if (connectorFile < 0 || connectorFile > Integer.MAX_VALUE) {
      return false;
    }
    Path path = directory.queuePair(connectorKey, (int) connectorFile);
    ShmQueuePair pair;
    try {
      pair = device.createQueuePair(listener.spec());
    } catch (VerbsException e) {
      rejectUnread(path, "the listener cannot create a queue pair: " + e.getMessage());
      return false;
    }
    try {
      QueuePairFile connector = new QueuePairFile(directory.mapExisting(path, pair.arena()));
      Optional<String> invalid = connector.invalidReason();
      if (invalid.isPresent() || connector.connectionState() != ConnectionState.REQUESTED) {
        invalid.ifPresent(reason -> rejectInvalid(connector, reason));
        pair.close();
        return false;
      }
      pair.attachPeer(connector);
      InetSocketAddress address = listener.localAddress();
      String description = address.getHostString() + ":" + address.getPort();
      handler.connectRequested(
          listener,
          ShmPendingConnection.incoming(this, pair, description),
          connector.privateData());
      return true;
    } catch (VerbsException e) {
      pair.close();
      return false;
    }
  }

  /** Tells a connector whose file is readable why its request was refused. */
  private static void rejectInvalid(QueuePairFile connector, String reason) {
    if (connector.segment().byteSize() >= QueuePairFileDescriptor.RECEIVE_SLOTS_OFFSET) {
      connector.writeReason("request refused: " + reason);
      connector.compareAndSetConnectionState(ConnectionState.REQUESTED, ConnectionState.REJECTED);
    }
  }

  private void rejectUnread(Path connectorPath, String reason) {
    try (Arena arena = Arena.ofConfined()) {
      rejectInvalid(new QueuePairFile(directory.mapExisting(connectorPath, arena)), reason);
    } catch (VerbsException e) {
      // The connector is gone: nobody to tell.
    }
  }

  /** Delivers an outgoing request's outcome once it has one; true when it did. */
  private boolean pollOutgoing(
      ShmPendingConnection connection, ConnectionEventHandler handler, boolean livenessDue) {
    ShmQueuePair pair = connection.queuePair();
    if (connection.isAnswered() || pair.isClosed()) {
      return true;
    }
    if (connection.failure() != null) {
      return failOutgoing(connection, connection.failure(), handler);
    }
    QueuePairFile own = pair.ownFile();
    ConnectionState state = own.connectionState();
    if (state == ConnectionState.REJECTED) {
      return failOutgoing(connection, own.reason(), handler);
    }
    if (state == ConnectionState.ACCEPTED) {
      return establishOutgoing(connection, handler);
    }
    // Without a failure an outgoing request has its listener (ShmPendingConnection.outgoing).
    ListenerFile listener = Objects.requireNonNull(connection.listener());
    if (livenessDue && (!listener.isListening() || !liveness.isAlive(listener.owner()))) {
      if (own.compareAndSetConnectionState(ConnectionState.REQUESTED, ConnectionState.ABANDONED)) {
        return failOutgoing(
            connection,
            "the shm listener at " + connection.peerDescription() + " closed before answering",
            handler);
      }
    }
    return false;
  }

  private boolean establishOutgoing(
      ShmPendingConnection connection, ConnectionEventHandler handler) {
    ShmQueuePair pair = connection.queuePair();
    QueuePairFile own = pair.ownFile();
    Path path = directory.queuePair(own.peerDeviceKey(), own.peerFileNumber());
    QueuePairFile acceptor;
    try {
      acceptor = new QueuePairFile(directory.mapExisting(path, pair.arena()));
    } catch (VerbsException e) {
      return failOutgoing(connection, "the acceptor's side vanished: " + e.getMessage(), handler);
    }
    Optional<String> invalid = acceptor.invalidReason();
    if (invalid.isPresent()) {
      return failOutgoing(connection, "the acceptor's side is unusable: " + invalid.get(), handler);
    }
    pair.attachPeer(acceptor);
    pair.markConnected();
    connection.markAnswered();
    connected.add(pair);
    handler.established(connection, acceptor.privateData());
    return true;
  }

  private static boolean failOutgoing(
      ShmPendingConnection connection, String reason, ConnectionEventHandler handler) {
    connection.markAnswered();
    connection.queuePair().fail(CompletionStatus.FLUSHED, SideState.ERROR);
    handler.failed(connection, reason);
    return true;
  }
}
