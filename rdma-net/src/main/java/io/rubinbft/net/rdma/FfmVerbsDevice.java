package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A real RDMA device through rdma-core (libibverbs and librdmacm) and Java's Foreign Function and
 * Memory API: no JNI, nothing to build. Connections are set up by rdma_cm over reliable-connected
 * queue pairs and carry two-sided sends and receives only; memory is registered for local access
 * only, so no remote key ever leaves the process.
 *
 * <p>One thread serves a device and everything made from it, as one selector thread serves a
 * replica's connections. {@link #connect} resolves the peer's address and route before it returns
 * (a local table lookup, bounded by {@link RdmaOptions#resolveTimeoutMillis()}) so that the queue
 * pair exists at once; the handshake itself completes through {@link #pollConnectionEvents}.
 *
 * <p>An idle poller sleeps in the kernel through {@link #eventChannel()}: rdma-core's completion
 * channel, which all of the device's completion queues are created on, and rdma_cm's event channel
 * ({@link FfmEventChannel}).
 */
public final class FfmVerbsDevice implements VerbsDevice {

  private static final int LISTEN_BACKLOG = 128;
  private static final long CM_ID_VERBS = VerbsLayouts.offset(VerbsLayouts.RDMA_CM_ID, "verbs");
  private static final long CM_ID_PORT = VerbsLayouts.offset(VerbsLayouts.RDMA_CM_ID, "port_num");
  private static final long CM_ID_SGID = VerbsLayouts.offset(VerbsLayouts.RDMA_CM_ID, "sgid");

  private final Arena arena;
  private final RdmaCore core;
  private final RdmaOptions options;
  private final DeviceSelection device;
  private final DevicePort port;
  private final MemorySegment protectionDomain;
  private final ConnectionEvents events;
  private final FfmEventChannel eventChannel;
  private final Set<AutoCloseable> resources = new LinkedHashSet<>();
  private boolean closed;

  private FfmVerbsDevice(
      Arena arena, RdmaCore core, RdmaOptions options, DeviceSelection device, DevicePort port)
      throws VerbsException {
    this.arena = arena;
    this.core = core;
    this.options = options;
    this.device = device;
    this.port = port;
    this.protectionDomain =
        NativeCalls.callForPointer(
            "ibv_alloc_pd on " + device.name(), core.allocPd, device.context());
    try {
      this.events = ConnectionEvents.open(this, arena);
    } catch (VerbsException e) {
      NativeCalls.invoke(core.deallocPd, protectionDomain);
      throw e;
    }
    try {
      this.eventChannel =
          FfmEventChannel.open(core, device.context(), events.fileDescriptor(), arena);
    } catch (VerbsException e) {
      NativeCalls.invoke(core.destroyEventChannel, events.channel());
      NativeCalls.invoke(core.deallocPd, protectionDomain);
      throw e;
    }
  }

  /**
   * Opens the device {@code options} names (or the first one) and checks its port (it exists and is
   * active) and the GID index if one is chosen.
   *
   * @throws RdmaUnavailableException when the libraries or any RDMA device are missing; its message
   *     says what is missing and which transport to choose instead
   * @throws VerbsException when the named device, its port or GID entry is missing or not usable
   */
  public static FfmVerbsDevice open(RdmaOptions options) throws VerbsException {
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    DeviceSelection device = null;
    RdmaCore core = null;
    try {
      core = RdmaCore.load(options, arena);
      device = DeviceSelection.select(core, options.deviceName(), arena);
      DevicePort port =
          DevicePort.check(
              DeviceSelection.SYSFS_DEVICES, device.name(), options.port(), options.gidIndex());
      return new FfmVerbsDevice(arena, core, options, device, port);
    } catch (VerbsException | RuntimeException e) {
      if (device != null && core != null) {
        NativeCalls.invoke(core.freeDevices, device.deviceList());
      }
      arena.close();
      throw e;
    }
  }

  RdmaCore core() {
    return core;
  }

  MemorySegment context() {
    return device.context();
  }

  MemorySegment protectionDomain() {
    return protectionDomain;
  }

  @Override
  public String name() {
    return device.name();
  }

  @Override
  public RegisteredMemory register(long bytes) throws VerbsException {
    requireOpen();
    FfmRegisteredMemory memory = FfmRegisteredMemory.register(this, bytes);
    resources.add(memory);
    return memory;
  }

  @Override
  public CompletionQueue createCompletionQueue(int capacity) throws VerbsException {
    requireOpen();
    FfmCompletionQueue queue =
        FfmCompletionQueue.create(this, capacity, eventChannel.completionChannel(), arena);
    resources.add(queue);
    eventChannel.add(queue);
    return queue;
  }

  @Override
  public ConnectionListener listen(InetSocketAddress address, QueuePairSpec spec)
      throws VerbsException {
    requireOpen();
    MemorySegment cmId = createId(events.channel());
    try (Arena call = Arena.ofConfined()) {
      NativeCalls.callChecked(
          "rdma_bind_addr to " + address,
          core.bindAddr,
          cmId,
          SocketAddresses.toNative(address, call));
      // bound to one address, the id has its device, port and GID now (a wildcard has none yet)
      if (!cmId.get(ADDRESS, CM_ID_VERBS).equals(MemorySegment.NULL)) {
        requireThisDevice(cmId, "listen address " + address);
      }
      NativeCalls.callChecked("rdma_listen on " + address, core.listen, cmId, LISTEN_BACKLOG);
    } catch (VerbsException | RuntimeException e) {
      destroyConnectionId(cmId);
      throw e;
    }
    int port =
        SocketAddresses.portFromNetworkOrder((short) NativeCalls.invoke(core.getSrcPort, cmId));
    FfmConnectionListener listener =
        new FfmConnectionListener(
            this, cmId, new InetSocketAddress(address.getAddress(), port), spec);
    events.add(cmId, listener);
    return listener;
  }

  @Override
  public PendingConnection connect(
      InetSocketAddress address, QueuePairSpec spec, byte[] privateData) throws VerbsException {
    requireOpen();
    requireRoomForQueuePair();
    // an id without an event channel resolves synchronously; it then moves to the device's channel
    MemorySegment cmId = createId(MemorySegment.NULL);
    FfmQueuePair queuePair = null;
    try (Arena call = Arena.ofConfined()) {
      int timeout = options.resolveTimeoutMillis();
      NativeCalls.callChecked(
          "rdma_resolve_addr of " + address,
          core.resolveAddr,
          cmId,
          MemorySegment.NULL,
          SocketAddresses.toNative(address, call),
          timeout);
      NativeCalls.callChecked("rdma_resolve_route to " + address, core.resolveRoute, cmId, timeout);
      requireThisDevice(cmId, address.toString());
      queuePair = FfmQueuePair.create(this, cmId, spec);
      NativeCalls.callChecked("rdma_migrate_id", core.migrateId, cmId, events.channel());
      FfmConnection connection =
          new FfmConnection(this, queuePair, address.toString(), false, new byte[0]);
      events.add(cmId, connection);
      NativeCalls.callChecked(
          "rdma_connect to " + address,
          core.connect,
          cmId,
          connectionParameters(privateData, call));
      return connection;
    } catch (VerbsException | RuntimeException e) {
      if (queuePair != null) {
        queuePair.close();
      } else {
        destroyConnectionId(cmId);
      }
      throw e;
    }
  }

  /** Makes the queue pair for a connection request that arrived at {@code listener}. */
  FfmConnection accepting(MemorySegment cmId, FfmConnectionListener listener, byte[] privateData)
      throws VerbsException {
    requireRoomForQueuePair();
    requireThisDevice(cmId, "a request to " + listener.localAddress());
    FfmQueuePair queuePair = FfmQueuePair.create(this, cmId, listener.spec());
    FfmConnection connection =
        new FfmConnection(
            this, queuePair, "a peer of " + listener.localAddress(), true, privateData);
    events.add(cmId, connection);
    return connection;
  }

  /**
   * rdma_conn_param for connect and accept. rnr_retry_count tells the peer how often to retry a
   * send that finds no receive posted; retry_count bounds retransmissions. No RDMA reads are served
   * (responder_resources and initiator_depth stay 0).
   */
  MemorySegment connectionParameters(byte[] privateData, Arena call) {
    MemorySegment param = call.allocate(VerbsLayouts.RDMA_CONN_PARAM);
    PrivateData.write(privateData, param, call);
    param.set(JAVA_BYTE, offsetInConnParam("flow_control"), (byte) 1);
    param.set(JAVA_BYTE, offsetInConnParam("retry_count"), (byte) options.transportRetryCount());
    param.set(JAVA_BYTE, offsetInConnParam("rnr_retry_count"), (byte) options.rnrRetryCount());
    return param;
  }

  private static long offsetInConnParam(String field) {
    return VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, field);
  }

  @Override
  public int maxPrivateDataBytes() {
    return PrivateData.MAX_BYTES;
  }

  @Override
  public int pollConnectionEvents(ConnectionEventHandler handler) throws VerbsException {
    requireOpen();
    return events.poll(handler);
  }

  /** rdma-core's completion channel and rdma_cm's event channel, waited on together. */
  @Override
  public Optional<EventChannel> eventChannel() {
    return Optional.of(eventChannel);
  }

  private MemorySegment createId(MemorySegment channel) throws VerbsException {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment idOut = call.allocate(ADDRESS);
      NativeCalls.callChecked(
          "rdma_create_id",
          core.createId,
          channel,
          idOut,
          MemorySegment.NULL,
          VerbsLayouts.RDMA_PS_TCP);
      return idOut.get(ADDRESS, 0).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
    }
  }

  /**
   * rdma_cm binds an id to the device, port and source GID its address belongs to; they must be the
   * device opened here, the chosen port and, if one was chosen, the GID index's entry.
   */
  private void requireThisDevice(MemorySegment cmId, String what) throws VerbsException {
    MemorySegment verbs = cmId.get(ADDRESS, CM_ID_VERBS);
    if (verbs.address() != device.context().address()) {
      throw new VerbsException(
          what
              + " is reached through another RDMA device than "
              + name()
              + "; open the device whose interface carries that address");
    }
    int portNumber = Byte.toUnsignedInt(cmId.get(JAVA_BYTE, CM_ID_PORT));
    if (portNumber != port.number()) {
      throw new VerbsException(
          what
              + " is reached through port "
              + portNumber
              + " of "
              + name()
              + ", not the configured port "
              + port.number());
    }
    byte[] sourceGid = cmId.asSlice(CM_ID_SGID, DevicePort.GID_BYTES).toArray(JAVA_BYTE);
    if (!port.acceptsGid(sourceGid)) {
      throw new VerbsException(
          what
              + " uses source GID "
              + DevicePort.format(sourceGid)
              + ", not the one at GID index "
              + options.gidIndex().orElseThrow()
              + " of "
              + port.describe()
              + "; choose the index of the replicas' address (show_gids, or"
              + " /sys/class/infiniband/"
              + name()
              + "/ports/"
              + port.number()
              + "/gids)");
    }
  }

  private void requireRoomForQueuePair() throws VerbsException {
    if (events.connectionCount() >= options.maxQueuePairs()) {
      throw new VerbsException(
          name() + " already holds its limit of " + options.maxQueuePairs() + " queue pairs");
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("device " + name() + " is closed");
    }
  }

  void destroyConnectionId(MemorySegment cmId) {
    events.forget(cmId);
    try {
      NativeCalls.callChecked("rdma_destroy_id", core.destroyId, cmId);
    } catch (VerbsException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  void forget(AutoCloseable resource) {
    resources.remove(resource);
  }

  void forget(FfmCompletionQueue queue) {
    resources.remove(queue);
    eventChannel.remove(queue);
  }

  /**
   * Closes what is still open (listeners, queue pairs, then queues and memory), then the event
   * channels and the device.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    List<AutoCloseable> open = new ArrayList<>(events.open());
    open.addAll(resources);
    for (AutoCloseable resource : open) {
      try {
        resource.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing " + name() + " failed", e);
      }
    }
    closed = true;
    eventChannel.close();
    NativeCalls.invoke(core.destroyEventChannel, events.channel());
    NativeCalls.callReturningErrno("ibv_dealloc_pd", core.deallocPd, protectionDomain);
    NativeCalls.invoke(core.freeDevices, device.deviceList());
    arena.close();
  }
}
