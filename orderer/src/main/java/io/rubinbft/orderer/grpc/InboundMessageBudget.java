package io.rubinbft.orderer.grpc;

import io.grpc.Context;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of gRPC messages being received, bounded per message, per connection and on the node,
 * whatever {@code General.MaxRecvMsgSize} says. grpc-java reads a message's body into memory as it
 * arrives and hands it to the call only once it is whole, returning HTTP/2 flow-control credit as
 * it reads, so without this a client could make the node hold up to the stream cap times
 * MaxRecvMsgSize per connection by sending large messages slowly. Counted from each body byte read
 * until the message is handed to its call (a stream tracer's {@code inboundWireSize} and {@code
 * inboundMessageRead}):
 *
 * <ul>
 *   <li>a message growing past the largest {@code AbsoluteMaxBytes} of the served channels plus a
 *       margin is refused as its bytes arrive, with RESOURCE_EXHAUSTED and grpc-go's text {@code
 *       grpc: received message larger than max (N vs. M)} (N the bytes received when refused);
 *   <li>when a connection's messages in progress would hold more than the per-connection budget, or
 *       all connections' more than the node's, the largest message in progress (of that connection,
 *       or of all) gives way: its call is closed with RESOURCE_EXHAUSTED, freeing what it held. So
 *       a client holding partial messages cannot keep out others' small ones: they push out its
 *       large ones.
 *   <li>a message still in progress after a grace period plus the time its bytes so far would take
 *       at a minimum rate is <em>overdue</em>; it is cut off (RESOURCE_EXHAUSTED, freeing what it
 *       held) only when holding its bytes costs someone: when another message needs room in its
 *       connection's or the node's budget, overdue messages give way first (the longest overdue
 *       first), before the largest rule above; and while the node's messages in progress hold more
 *       than half its budget, {@link #cutOffOverdue} (called periodically) cuts off every overdue
 *       message. An honest client sending a large message slowly to a node with room to spare (an
 *       overloaded machine, a slow link) is therefore served however slow it is.
 * </ul>
 *
 * <p>What a client holding partial messages it never finishes (slowloris) can pin: never more than
 * the connection's budget per connection and the node's budget in all, as above. Against others who
 * need the room, each of its messages for at most the grace plus its bytes' time at the minimum
 * rate (then it gives way at once), so holding the node's budget from others costs sending at the
 * minimum rate, and messages smaller than the grace's worth give way at the grace. Bytes nobody
 * needs it may hold indefinitely, but only while the node's messages in progress hold at most half
 * its budget: beyond that its overdue messages are cut off within the check's period.
 *
 * <p>Each call is closed once: a message refused as it arrives by the transport (the tracer throws,
 * grpc-java ends the stream), one made to give way or cut off by the budget through its call, on a
 * thread of its own; the bytes that still arrive for it until that close lands (it is queued at
 * once) are ignored, not refused again, since a second close racing the first ends the whole
 * connection.
 *
 * <p>Each refusal is counted by reason and logged, at most one line per {@value
 * RefusalCounter#LOG_INTERVAL_MILLIS} ms ({@link RefusalCounter}). Install it both as the server's
 * stream tracer and as an interceptor of every service (the interceptor hands each message's tracer
 * the call to close).
 */
final class InboundMessageBudget extends ServerStreamTracer.Factory implements ServerInterceptor {

  /** Why a message was refused; its label ({@link RefusalCounter}) the metric's. */
  enum Refusal {
    TOO_LARGE,
    CONNECTION_BUDGET,
    NODE_BUDGET,
    TOO_SLOW
  }

  private static final Logger LOG = LoggerFactory.getLogger(InboundMessageBudget.class);
  private static final Context.Key<Receiving> RECEIVING = Context.key("rubin-inbound-message");

  private final LongSupplier maxMessageBytes;
  private final long connectionBytes;
  private final long nodeBytes;
  private final long graceNanos;
  private final long minBytesPerSecond;
  private final Set<Receiving> inProgress = new HashSet<>();
  private final Map<Object, Long> byConnection = new HashMap<>();
  private final RefusalCounter<Refusal> refusals =
      new RefusalCounter<>(Refusal.class, () -> System.nanoTime() / 1_000_000);
  private long total;

  /**
   * @param maxMessageBytes the largest message taken now (it follows the served channels' configs)
   * @param connectionBytes the most one connection's messages in progress may hold, at least the
   *     largest message
   * @param nodeBytes the most all connections' messages in progress may hold, at least {@code
   *     connectionBytes}
   * @param grace how long any message may be in progress before it is overdue
   * @param minBytesPerSecond beyond the grace, the rate a message in progress must have come at on
   *     average since its first byte not to be overdue
   */
  InboundMessageBudget(
      LongSupplier maxMessageBytes,
      long connectionBytes,
      long nodeBytes,
      Duration grace,
      long minBytesPerSecond) {
    if (grace.isNegative() || minBytesPerSecond <= 0) {
      throw new IllegalArgumentException(
          "a message's grace must not be negative and its minimum rate positive: "
              + grace
              + ", "
              + minBytesPerSecond);
    }
    if (connectionBytes <= 0 || nodeBytes < connectionBytes) {
      throw new IllegalArgumentException(
          "budgets must be positive and the node's at least a connection's: "
              + connectionBytes
              + ", "
              + nodeBytes);
    }
    this.maxMessageBytes = maxMessageBytes;
    this.connectionBytes = connectionBytes;
    this.nodeBytes = nodeBytes;
    this.graceNanos = grace.toNanos();
    this.minBytesPerSecond = minBytesPerSecond;
  }

  @Override
  public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
    return new Receiving();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    Receiving receiving = RECEIVING.get();
    if (receiving == null) {
      return next.startCall(call, headers);
    }
    ClosableCall<Q, R> closable = new ClosableCall<>(call);
    receiving.attach(closable, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    return next.startCall(closable, headers);
  }

  /** Messages refused so far, by the metric's reason label. */
  Map<String, Long> refusals() {
    return refusals.byLabel();
  }

  /** Bytes of messages in progress on the node now. */
  synchronized long inProgressBytes() {
    return total;
  }

  /**
   * While the node's messages in progress hold more than half its budget, cuts off every overdue
   * message (in progress for longer than the grace plus the time its bytes so far would take at the
   * minimum rate): its call ends with RESOURCE_EXHAUSTED and what it held is freed. With room to
   * spare it cuts off nothing: an overdue message gives way only to one that needs its room.
   */
  void cutOffOverdue() {
    List<Receiving> overdue = new ArrayList<>();
    synchronized (this) {
      if (total <= nodeBytes / 2) {
        return;
      }
      long now = System.nanoTime();
      for (Receiving message : List.copyOf(inProgress)) {
        if (overdueNanos(message, now) > 0) {
          refuseOverdue(message, now);
          markForClosing(message, overdue);
        }
      }
    }
    closeOffThisThread(overdue);
  }

  /** How long {@code message} has been in progress beyond its allowance (not overdue if <= 0). */
  private long overdueNanos(Receiving message, long now) {
    long allowedNanos = graceNanos + message.bytes * 1_000_000_000L / minBytesPerSecond;
    return now - message.startedNanos - allowedNanos;
  }

  private Status refuseOverdue(Receiving message, long now) {
    return refuse(
        message,
        Refusal.TOO_SLOW,
        "grpc: message not received in time: "
            + message.bytes
            + " bytes in "
            + (now - message.startedNanos) / 1_000_000
            + " ms, under "
            + minBytesPerSecond
            + " bytes/s after a grace of "
            + graceNanos / 1_000_000
            + " ms, when its room was wanted");
  }

  /**
   * Counts {@code bytes} more of {@code message}'s current message, after making room.
   *
   * @throws io.grpc.StatusRuntimeException RESOURCE_EXHAUSTED when the message itself gives way
   */
  private void take(Receiving message, long bytes) {
    List<Receiving> evicted = new ArrayList<>();
    Status refused = null;
    synchronized (this) {
      if (message.refused) {
        if (message.closedByBudget) {
          // Given way to another, its call's close on its way from the budget: nothing more of it
          // is held. Not thrown: the transport would close the stream too, and a second close
          // racing the first fails the whole connection (netty's "Stream N in unexpected state
          // HALF_CLOSED_LOCAL" when the second trailers follow the first).
          return;
        }
        throw message.refusal.asRuntimeException();
      }
      long size = message.bytes + bytes;
      long max = maxMessageBytes.getAsLong();
      if (size > max) {
        refused =
            refuse(
                message,
                Refusal.TOO_LARGE,
                "grpc: received message larger than max (" + size + " vs. " + max + ")");
      } else {
        refused = makeRoom(message, bytes, evicted);
        if (refused == null) {
          if (message.bytes == 0) {
            message.startedNanos = System.nanoTime();
          }
          message.bytes = size;
          inProgress.add(message);
          byConnection.merge(message.connection, bytes, Long::sum);
          total += bytes;
        }
      }
    }
    closeOffThisThread(evicted);
    if (refused != null) {
      throw refused.asRuntimeException();
    }
  }

  /**
   * Closes the calls of messages refused, the one close of each: their transports' later bytes are
   * ignored rather than refused again ({@link #take}). Closing a call takes its lock: never under
   * this one, nor on a thread that may hold it (a call's request may deframe into take).
   */
  private static void closeOffThisThread(List<Receiving> refused) {
    for (Receiving message : refused) {
      Thread.ofVirtual().start(() -> message.close(message.refusal));
    }
  }

  /**
   * Evicts overdue messages in progress, then the largest, until {@code bytes} more of {@code
   * message} fit, or returns why {@code message} itself gives way (it is the largest).
   */
  private @Nullable Status makeRoom(Receiving message, long bytes, List<Receiving> evicted) {
    long now = System.nanoTime();
    while (byConnection.getOrDefault(message.connection, 0L) + bytes > connectionBytes) {
      Receiving overdue = longestOverdue(message.connection, message, now);
      if (overdue != null) {
        refuseOverdue(overdue, now);
        markForClosing(overdue, evicted);
        continue;
      }
      Receiving largest = largest(message.connection);
      if (largest == null || largest.bytes <= message.bytes + bytes) {
        return refuse(
            message, Refusal.CONNECTION_BUDGET, budgetText("this connection", connectionBytes));
      }
      evict(largest, Refusal.CONNECTION_BUDGET, connectionBytes, evicted);
    }
    while (total + bytes > nodeBytes) {
      Receiving overdue = longestOverdue(null, message, now);
      if (overdue != null) {
        refuseOverdue(overdue, now);
        markForClosing(overdue, evicted);
        continue;
      }
      Receiving largest = largest(null);
      if (largest == null || largest.bytes <= message.bytes + bytes) {
        return refuse(message, Refusal.NODE_BUDGET, budgetText("this node", nodeBytes));
      }
      evict(largest, Refusal.NODE_BUDGET, nodeBytes, evicted);
    }
    return null;
  }

  /**
   * The overdue message in progress on {@code connection} (on the node when it is null) other than
   * {@code needing} that has been overdue longest, if any.
   */
  private @Nullable Receiving longestOverdue(
      @Nullable Object connection, Receiving needing, long now) {
    return inProgress.stream()
        .filter(r -> r != needing && (connection == null || r.connection.equals(connection)))
        .filter(r -> overdueNanos(r, now) > 0)
        .max(Comparator.comparingLong(r -> overdueNanos(r, now)))
        .orElse(null);
  }

  /** The largest message in progress on {@code connection}, or on the node when it is null. */
  private @Nullable Receiving largest(@Nullable Object connection) {
    return inProgress.stream()
        .filter(r -> connection == null || r.connection.equals(connection))
        .max(Comparator.comparingLong(r -> r.bytes))
        .orElse(null);
  }

  private void evict(Receiving victim, Refusal reason, long budget, List<Receiving> evicted) {
    String where = reason == Refusal.NODE_BUDGET ? "this node" : "this connection";
    refuse(victim, reason, budgetText(where, budget));
    markForClosing(victim, evicted);
  }

  /**
   * Marks {@code refused}'s call as closed by the budget (under this lock, before its transport can
   * see the refusal) and adds it to {@code toClose}, for {@link #closeOffThisThread}.
   */
  private static void markForClosing(Receiving refused, List<Receiving> toClose) {
    refused.closedByBudget = true;
    toClose.add(refused);
  }

  private static String budgetText(String where, long budget) {
    return "grpc: messages being received on "
        + where
        + " would hold more than its "
        + budget
        + " bytes; the largest gave way";
  }

  private Status refuse(Receiving message, Refusal reason, String text) {
    release(message);
    message.refused = true;
    message.refusal = Status.RESOURCE_EXHAUSTED.withDescription(text);
    refusals.count(
        reason,
        count ->
            LOG.warn(
                "gRPC message from {} refused: {} ({} refused for this reason so far)",
                message.connection,
                text,
                count));
    return message.refusal;
  }

  /** Forgets what {@code message}'s current message holds. */
  private void release(Receiving message) {
    if (message.bytes > 0) {
      total -= message.bytes;
      byConnection.computeIfPresent(
          message.connection, (c, held) -> held > message.bytes ? held - message.bytes : null);
      message.bytes = 0;
    }
    inProgress.remove(message);
  }

  /** One stream's message in progress. Its fields are guarded by the budget. */
  private final class Receiving extends ServerStreamTracer {

    private Object connection = "unknown";
    private long bytes;
    private long startedNanos;
    private boolean refused;
    private boolean closedByBudget;
    private Status refusal = Status.RESOURCE_EXHAUSTED;
    private volatile @Nullable ClosableCall<?, ?> call;

    @Override
    public Context filterContext(Context context) {
      return context.withValue(RECEIVING, this);
    }

    void attach(ClosableCall<?, ?> call, @Nullable SocketAddress remote) {
      synchronized (InboundMessageBudget.this) {
        if (remote != null) {
          connection = remote;
        }
      }
      this.call = call;
    }

    @Override
    public void inboundWireSize(long bytes) {
      take(this, bytes);
    }

    @Override
    public void inboundMessageRead(int seqNo, long optionalWireSize, long optionalUncompressed) {
      synchronized (InboundMessageBudget.this) {
        release(this);
      }
    }

    @Override
    public void streamClosed(Status status) {
      synchronized (InboundMessageBudget.this) {
        release(this);
      }
    }

    void close(Status status) {
      ClosableCall<?, ?> closable = call;
      if (closable != null) {
        closable.close(status, new Metadata());
      }
    }
  }

  /**
   * A call the budget may close from another thread: the methods that write to the stream are
   * serialized with that close, and after it they do nothing (the handler learns of the end when
   * its call is cancelled).
   */
  private static final class ClosableCall<Q, R> extends SimpleForwardingServerCall<Q, R> {

    private boolean closed;

    ClosableCall(ServerCall<Q, R> call) {
      super(call);
    }

    @Override
    public synchronized void sendHeaders(Metadata headers) {
      if (!closed) {
        super.sendHeaders(headers);
      }
    }

    @Override
    public synchronized void sendMessage(R message) {
      if (!closed) {
        super.sendMessage(message);
      }
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
      if (!closed) {
        closed = true;
        super.close(status, trailers);
      }
    }
  }
}
