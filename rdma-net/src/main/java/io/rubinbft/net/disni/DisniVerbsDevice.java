package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The verbs SPI over DiSNI (com.ibm.disni, the RUBIN seeds' stack), kept thin, for users who run
 * DiSNI already. It needs DiSNI's JNI library {@code libdisni}, which no package registry ships;
 * the rdma-core binding ({@code io.rubinbft.net.rdma}) needs no native build and is the one CI
 * tests. The device is the one holding {@code address} (rdma_cm picks devices by IP address).
 *
 * <p>What DiSNI cannot do, and this binding therefore does not: private data (its events do not
 * return it, so {@link #maxPrivateDataBytes()} is 0), rdma_reject (a rejected request is
 * destroyed), chained receives (each receive is its own post), and reporting an event's status.
 * Connects resolve address and route synchronously (bounded by two seconds, a local lookup), each
 * on its own event channel; listeners have one each. One thread uses a device and all it made.
 *
 * <p>No {@link #eventChannel()}: an idle poller of this device parks and looks again, because DiSNI
 * 2.1 does not expose enough to sleep in the kernel as the rdma binding does. Its {@code
 * IbvCompChannel.getFd()} and {@code RdmaEventChannel.getFd()} return 0, not the descriptors (the
 * Java objects are made with 0; the real ones stay in libdisni), so nothing can wait on the
 * completion channel, the rdma_cm channels and a wake-up descriptor together; its only wait, {@code
 * IbvCompChannel.getCqEvent(cq, timeout)}, polls one completion channel and cannot be woken by
 * another thread or by a connection event; and it drops which queue the event names (its {@code cq}
 * argument is unused), so events on a channel shared by two queues cannot be acknowledged on the
 * right one, and {@code ibv_destroy_cq} waits until they are. Reading libdisni's internal object
 * ids as native pointers would get the descriptors, but that is DiSNI's private representation, not
 * its API.
 */
public final class DisniVerbsDevice implements VerbsDevice {

  private static final byte[] NO_PRIVATE_DATA = new byte[0];
  private static final EventType[] EVENT_TYPES = EventType.values();
  private static final int RESOLVE_TIMEOUT_MILLIS = 2_000;
  private static final int LISTEN_BACKLOG = 128;
  private static final byte RETRY_COUNT = 7;
  // Never 7 (retry forever): the layer above keeps receives posted, and a failure must show.
  private static final byte RECEIVER_NOT_READY_RETRY_COUNT = 3;

  private final InetAddress address;
  private final RdmaEventChannel deviceChannel;
  private final RdmaCmId deviceId;
  private final IbvContext context;
  private final IbvPd protectionDomain;
  private final IbvCompChannel completionChannel;
  private final List<RdmaEventChannel> polledChannels = new ArrayList<>();
  private final List<RdmaEventChannel> listenerChannels = new ArrayList<>();
  private final IdentityHashMap<RdmaCmId, DisniListener> listeners = new IdentityHashMap<>();
  private final IdentityHashMap<RdmaCmId, DisniConnection> connections = new IdentityHashMap<>();
  private boolean closed;

  private DisniVerbsDevice(
      InetAddress address,
      RdmaEventChannel deviceChannel,
      RdmaCmId deviceId,
      IbvContext context,
      IbvPd protectionDomain,
      IbvCompChannel completionChannel) {
    this.address = address;
    this.deviceChannel = deviceChannel;
    this.deviceId = deviceId;
    this.context = context;
    this.protectionDomain = protectionDomain;
    this.completionChannel = completionChannel;
  }

  /**
   * Opens the RDMA device that holds {@code address}.
   *
   * @throws DisniUnavailableException when libdisni cannot be loaded or no device holds the address
   */
  public static DisniVerbsDevice open(InetAddress address) throws VerbsException {
    RdmaEventChannel channel;
    try {
      channel = RdmaEventChannel.createEventChannel();
    } catch (LinkageError e) {
      throw new DisniUnavailableException(
          "libdisni (DiSNI's JNI library) cannot be loaded ("
              + e
              + "); no package registry ships it: build it from DiSNI's C sources against"
              + " rdma-core and start the JVM with -Djava.library.path=<its directory>, or choose"
              + " transport rdma (rdma-core through Java's FFM API, no native build), tcp (any"
              + " network) or shm (processes on one host) instead",
          e);
    } catch (IOException e) {
      throw new DisniUnavailableException(
          "rdma_create_event_channel failed ("
              + e.getMessage()
              + "): rdma_cm needs /dev/infiniband/rdma_cm (kernel module rdma_ucm)",
          e);
    }
    try {
      RdmaCmId id = channel.createId(RdmaCm.RDMA_PS_TCP);
      id.bindAddr(new InetSocketAddress(address, 0));
      IbvContext context = id.getVerbs();
      if (context == null) {
        throw new IOException("the address is bound to no RDMA device");
      }
      return new DisniVerbsDevice(
          address, channel, id, context, context.allocPd(), context.createCompChannel());
    } catch (IOException e) {
      throw new DisniUnavailableException(
          "no RDMA device holds "
              + address.getHostAddress()
              + " ("
              + e.getMessage()
              + "); `rdma link show` lists devices and their interfaces",
          e);
    }
  }

  @Override
  public String name() {
    return "disni:" + address.getHostAddress();
  }

  @Override
  public RegisteredMemory register(long bytes) throws VerbsException {
    return DisniRegisteredMemory.register(protectionDomain, bytes);
  }

  @Override
  public CompletionQueue createCompletionQueue(int capacity) throws VerbsException {
    try {
      return new DisniCompletionQueue(context.createCQ(completionChannel, capacity, 0));
    } catch (IOException e) {
      throw new VerbsException("ibv_create_cq of " + capacity + " through DiSNI failed", e);
    }
  }

  @Override
  public ConnectionListener listen(InetSocketAddress at, QueuePairSpec spec) throws VerbsException {
    try {
      RdmaEventChannel channel = RdmaEventChannel.createEventChannel();
      RdmaCmId id = channel.createId(RdmaCm.RDMA_PS_TCP);
      id.bindAddr(at);
      id.listen(LISTEN_BACKLOG);
      DisniListener listener =
          new DisniListener(this, channel, id, (InetSocketAddress) id.getSource(), spec);
      listeners.put(id, listener);
      listenerChannels.add(channel);
      polledChannels.add(channel);
      return listener;
    } catch (IOException e) {
      throw new VerbsException("listening at " + at + " through DiSNI failed", e);
    }
  }

  @Override
  public PendingConnection connect(InetSocketAddress to, QueuePairSpec spec, byte[] privateData)
      throws VerbsException {
    requireNoPrivateData(privateData);
    RdmaEventChannel channel = null;
    RdmaCmId id = null;
    try {
      channel = RdmaEventChannel.createEventChannel();
      id = channel.createId(RdmaCm.RDMA_PS_TCP);
      id.resolveAddr(new InetSocketAddress(address, 0), to, RESOLVE_TIMEOUT_MILLIS);
      await(channel, EventType.RDMA_CM_EVENT_ADDR_RESOLVED, to);
      id.resolveRoute(RESOLVE_TIMEOUT_MILLIS);
      await(channel, EventType.RDMA_CM_EVENT_ROUTE_RESOLVED, to);
      DisniConnection connection = new DisniConnection(this, id, channel);
      connection.attach(DisniQueuePair.create(connection, id, protectionDomain, spec));
      connections.put(id, connection);
      polledChannels.add(channel);
      connection.connect(connectionParameters());
      return connection;
    } catch (IOException e) {
      abandon(channel, id);
      throw e instanceof VerbsException verbs
          ? verbs
          : new VerbsException("connecting to " + to + " through DiSNI failed", e);
    }
  }

  private static void await(RdmaEventChannel channel, EventType expected, InetSocketAddress to)
      throws IOException {
    RdmaCmEvent event = channel.getCmEvent(RESOLVE_TIMEOUT_MILLIS);
    if (event == null) {
      throw new VerbsException(
          "no " + expected + " for " + to + " within " + RESOLVE_TIMEOUT_MILLIS + " ms");
    }
    EventType type = type(event);
    if (type != expected) {
      throw new VerbsException("resolving " + to + " failed: " + type);
    }
  }

  private static void abandon(@Nullable RdmaEventChannel channel, @Nullable RdmaCmId id) {
    try {
      if (id != null) {
        id.destroyId();
      }
      if (channel != null) {
        channel.destroyEventChannel();
      }
    } catch (IOException e) {
      throw new IllegalStateException("cleaning up a failed DiSNI connect failed", e);
    }
  }

  @Override
  public int maxPrivateDataBytes() {
    return 0;
  }

  @Override
  public int pollConnectionEvents(ConnectionEventHandler handler) throws VerbsException {
    int count = 0;
    try {
      // A handler may destroy a connection and so remove its channel: stay on the index then.
      for (int i = 0; i < polledChannels.size(); ) {
        RdmaEventChannel channel = polledChannels.get(i);
        RdmaCmEvent event;
        while (channel.isOpen() && (event = channel.getCmEvent(0)) != null) {
          dispatch(event, handler);
          count++;
        }
        if (i < polledChannels.size() && polledChannels.get(i) == channel) {
          i++;
        }
      }
    } catch (IOException e) {
      throw new VerbsException("rdma_get_cm_event through DiSNI failed", e);
    }
    return count;
  }

  private void dispatch(RdmaCmEvent event, ConnectionEventHandler handler) {
    EventType type = type(event);
    if (type == EventType.RDMA_CM_EVENT_CONNECT_REQUEST) {
      onRequest(listeners.get(event.getListenIdPriv()), event.getConnIdPriv(), handler);
      return;
    }
    DisniConnection connection = connections.get(event.getConnIdPriv());
    if (connection == null) {
      return; // An event for an id already destroyed (e.g. TIMEWAIT_EXIT).
    }
    switch (type) {
      case RDMA_CM_EVENT_ESTABLISHED -> {
        if (connection.markEstablished()) {
          handler.established(connection, NO_PRIVATE_DATA);
        }
      }
      case RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_DEVICE_REMOVAL -> {
        if (connection.isEstablished()) {
          handler.disconnected(connection.queuePair());
        } else {
          handler.failed(connection, type + " before the connection was established");
        }
      }
      case RDMA_CM_EVENT_REJECTED,
          RDMA_CM_EVENT_UNREACHABLE,
          RDMA_CM_EVENT_CONNECT_ERROR,
          RDMA_CM_EVENT_ADDR_ERROR,
          RDMA_CM_EVENT_ROUTE_ERROR -> {
        if (!connection.isEstablished()) {
          handler.failed(connection, type.toString());
        }
      }
      default -> {
        // Address and route resolution are awaited in connect; the rest concern no connection.
      }
    }
  }

  private void onRequest(
      @Nullable DisniListener listener, RdmaCmId id, ConnectionEventHandler handler) {
    DisniConnection request = new DisniConnection(this, id, null);
    if (listener == null) {
      request.destroy();
      return;
    }
    try {
      request.attach(DisniQueuePair.create(request, id, protectionDomain, listener.spec()));
    } catch (VerbsException e) {
      // No pair for it (e.g. the completion queues are full): refuse the peer, keep serving.
      request.destroy();
      return;
    }
    connections.put(id, request);
    handler.connectRequested(listener, request, NO_PRIVATE_DATA);
  }

  private static EventType type(RdmaCmEvent event) {
    int code = event.getEvent();
    if (code < 0 || code >= EVENT_TYPES.length) {
      throw new IllegalStateException(
          "DiSNI reported rdma_cm event " + code + ", not one it knows");
    }
    return EVENT_TYPES[code];
  }

  RdmaConnParam connectionParameters() throws VerbsException {
    try {
      RdmaConnParam parameters = new RdmaConnParam();
      parameters.setRetry_count(RETRY_COUNT);
      parameters.setRnr_retry_count(RECEIVER_NOT_READY_RETRY_COUNT);
      return parameters;
    } catch (IOException e) {
      throw new VerbsException("DiSNI refused the connection parameters", e);
    }
  }

  static void requireNoPrivateData(byte[] privateData) throws VerbsException {
    if (privateData.length > 0) {
      throw new VerbsException(
          "DiSNI carries no private data (its events do not return it); got "
              + privateData.length
              + " bytes");
    }
  }

  void forget(DisniConnection connection) {
    connections.remove(connection.id());
    if (connection.ownChannel() != null) {
      polledChannels.remove(connection.ownChannel());
    }
  }

  void forget(DisniListener listener) {
    listeners.remove(listener.id());
  }

  /** Closes what is left (connections, listeners), then the device's own resources; once. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (DisniConnection connection : List.copyOf(connections.values())) {
      connection.reject();
    }
    for (DisniListener listener : List.copyOf(listeners.values())) {
      listener.close();
    }
    try {
      for (RdmaEventChannel channel : listenerChannels) {
        channel.destroyEventChannel();
      }
      completionChannel.destroyCompChannel();
      protectionDomain.deallocPd();
      deviceId.destroyId();
      deviceChannel.destroyEventChannel();
    } catch (Exception e) { // DiSNI's deallocPd declares Exception
      throw new IllegalStateException("closing DiSNI device " + name() + " failed", e);
    }
  }
}
