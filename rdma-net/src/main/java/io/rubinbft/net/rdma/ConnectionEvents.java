package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The device's rdma_cm event channel, read without blocking (its fd is O_NONBLOCK), and the ids
 * that events name: listeners and connections. Each event is copied and acknowledged before it is
 * handed on, so handlers may destroy the id it names.
 */
final class ConnectionEvents {

  private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO = CAPTURE.varHandle(PathElement.groupElement("errno"));
  private static final StructLayout EVENT = VerbsLayouts.RDMA_CM_EVENT;
  private static final long EVENT_ID = VerbsLayouts.offset(EVENT, "id");
  private static final long EVENT_LISTEN_ID = VerbsLayouts.offset(EVENT, "listen_id");
  private static final long EVENT_TYPE = VerbsLayouts.offset(EVENT, "event");
  private static final long EVENT_STATUS = VerbsLayouts.offset(EVENT, "status");
  private static final long EVENT_CONN = VerbsLayouts.offset(EVENT, "conn");

  private final FfmVerbsDevice device;
  private final MemorySegment channel;
  private final MemorySegment capture;
  private final MemorySegment eventOut;
  private final Map<Long, FfmConnection> connections = new HashMap<>();
  private final Map<Long, FfmConnectionListener> listeners = new HashMap<>();

  private ConnectionEvents(FfmVerbsDevice device, MemorySegment channel, Arena arena) {
    this.device = device;
    this.channel = channel;
    this.capture = arena.allocate(CAPTURE);
    this.eventOut = arena.allocate(ADDRESS);
  }

  static ConnectionEvents open(FfmVerbsDevice device, Arena arena) throws VerbsException {
    RdmaCore core = device.core();
    MemorySegment channel =
        NativeCalls.callForPointer("rdma_create_event_channel", core.createEventChannel)
            .reinterpret(VerbsLayouts.RDMA_EVENT_CHANNEL.byteSize());
    try {
      Libc.setNonBlocking(channel.get(JAVA_INT, 0), "the rdma_cm event channel");
    } catch (VerbsException e) {
      NativeCalls.invoke(core.destroyEventChannel, channel);
      throw e;
    }
    return new ConnectionEvents(device, channel, arena);
  }

  private int errno() {
    return (int) ERRNO.get(capture, 0L);
  }

  MemorySegment channel() {
    return channel;
  }

  /** The event channel's file descriptor, readable while events wait (for poll(2)). */
  int fileDescriptor() {
    return channel.get(JAVA_INT, 0);
  }

  int connectionCount() {
    return connections.size();
  }

  void add(MemorySegment cmId, FfmConnection connection) {
    connections.put(cmId.address(), connection);
  }

  void add(MemorySegment cmId, FfmConnectionListener listener) {
    listeners.put(cmId.address(), listener);
  }

  void forget(MemorySegment cmId) {
    connections.remove(cmId.address());
    listeners.remove(cmId.address());
  }

  /** Everything still open, for the device's close. */
  List<AutoCloseable> open() {
    List<AutoCloseable> all = new ArrayList<>(listeners.values());
    connections.values().forEach(c -> all.add(c.queuePair()));
    return all;
  }

  int poll(ConnectionEventHandler handler) throws VerbsException {
    int delivered = 0;
    while (true) {
      int result = (int) NativeCalls.invoke(device.core().getCmEvent, capture, channel, eventOut);
      if (result != 0) {
        if (errno() == Libc.EAGAIN) {
          return delivered;
        }
        throw new VerbsException("rdma_get_cm_event failed: " + NativeCalls.describeErrno(errno()));
      }
      MemorySegment event = eventOut.get(ADDRESS, 0).reinterpret(EVENT.byteSize());
      ReceivedEvent received =
          new ReceivedEvent(
              event.get(JAVA_INT, EVENT_TYPE),
              event.get(JAVA_INT, EVENT_STATUS),
              event.get(ADDRESS, EVENT_ID).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize()),
              event.get(ADDRESS, EVENT_LISTEN_ID).address(),
              PrivateData.copyReceived(event.asSlice(EVENT_CONN)));
      NativeCalls.callChecked("rdma_ack_cm_event", device.core().ackCmEvent, event);
      dispatch(received, handler);
      delivered++;
    }
  }

  private void dispatch(ReceivedEvent event, ConnectionEventHandler handler) throws VerbsException {
    switch (event.type()) {
      case VerbsLayouts.RDMA_CM_EVENT_CONNECT_REQUEST -> requested(event, handler);
      case VerbsLayouts.RDMA_CM_EVENT_ESTABLISHED -> established(event, handler);
      case VerbsLayouts.RDMA_CM_EVENT_REJECTED,
          VerbsLayouts.RDMA_CM_EVENT_CONNECT_ERROR,
          VerbsLayouts.RDMA_CM_EVENT_UNREACHABLE,
          VerbsLayouts.RDMA_CM_EVENT_ADDR_ERROR,
          VerbsLayouts.RDMA_CM_EVENT_ROUTE_ERROR ->
          failed(event, handler);
      case VerbsLayouts.RDMA_CM_EVENT_DISCONNECTED, VerbsLayouts.RDMA_CM_EVENT_DEVICE_REMOVAL ->
          disconnected(event, handler);
      default -> {
        // address/route resolution happens synchronously in connect; CONNECT_RESPONSE comes only
        // for ids without a queue pair; TIMEWAIT_EXIT and ADDR_CHANGE need no action
      }
    }
  }

  /**
   * The pair stays as it is: frames that arrived before the peer's disconnect can still be read, as
   * a socket reads to its end. Closing the pair (rdma_destroy_id) answers the peer's request.
   */
  private void disconnected(ReceivedEvent event, ConnectionEventHandler handler) {
    FfmConnection connection = connections.get(event.cmId().address());
    if (connection != null) {
      handler.disconnected(connection.queuePair());
    }
  }

  private void requested(ReceivedEvent event, ConnectionEventHandler handler)
      throws VerbsException {
    FfmConnectionListener listener = listeners.get(event.listenId());
    if (listener == null) {
      rejectAndDestroy(event.cmId());
      return;
    }
    FfmConnection connection;
    byte[] privateData;
    try {
      privateData = PrivateData.decode(event.privateData());
      connection = device.accepting(event.cmId(), listener, privateData);
    } catch (VerbsException | RuntimeException e) {
      rejectAndDestroy(event.cmId());
      throw new VerbsException(
          "connection request to " + listener.localAddress() + " rejected: " + e.getMessage(), e);
    }
    handler.connectRequested(listener, connection, privateData);
  }

  private void rejectAndDestroy(MemorySegment cmId) {
    NativeCalls.invoke(device.core().reject, cmId, MemorySegment.NULL, (byte) 0);
    NativeCalls.invoke(device.core().destroyId, capture, cmId);
  }

  private void established(ReceivedEvent event, ConnectionEventHandler handler) {
    FfmConnection connection = connections.get(event.cmId().address());
    if (connection == null) {
      return;
    }
    if (connection.incoming()) {
      connection.markEstablished();
      handler.established(connection, connection.requestPrivateData());
      return;
    }
    byte[] privateData;
    try {
      privateData = PrivateData.decode(event.privateData());
    } catch (VerbsException e) {
      handler.failed(connection, "connection to " + connection.peer() + ": " + e.getMessage());
      return;
    }
    connection.markEstablished();
    handler.established(connection, privateData);
  }

  private void failed(ReceivedEvent event, ConnectionEventHandler handler) {
    FfmConnection connection = connections.get(event.cmId().address());
    if (connection == null) {
      return;
    }
    String what =
        event.type() == VerbsLayouts.RDMA_CM_EVENT_REJECTED
            ? "was rejected (no listener at that address and port, or the peer refused it)"
            : "failed: "
                + NativeCalls.string(
                    (MemorySegment) NativeCalls.invoke(device.core().eventStr, event.type()));
    handler.failed(
        connection,
        "connection to " + connection.peer() + " " + what + ", status " + event.status());
  }

  /** An event's fields, copied out before the event is acknowledged. */
  private record ReceivedEvent(
      int type, int status, MemorySegment cmId, long listenId, byte[] privateData) {}
}
