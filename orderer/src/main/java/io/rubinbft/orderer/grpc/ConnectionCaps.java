package io.rubinbft.orderer.grpc;

import io.rubinbft.orderer.config.ConnectionLimits;
import java.net.InetAddress;
import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which connections of the gRPC listener may stay open ({@link ConnectionLimits}). A connection
 * over a cap on open connections is refused as it is accepted (the newest gives way: a source can
 * only hold what it already has); a connection over a cap on handshaking connections closes the
 * oldest handshaking one, of its source if that source is over its cap, else of all, so that idle
 * connections give way to clients that handshake at once. Every refusal is counted by reason (the
 * metric {@code grpc_server_connections_refused_total}) and logged, at most one line per {@value
 * RefusalCounter#LOG_INTERVAL_MILLIS} ms. Thread-safe.
 *
 * @param <C> a connection
 */
final class ConnectionCaps<C> {

  /** Why a connection was refused or closed; its label ({@link RefusalCounter}) the metric's. */
  enum Refusal {
    TOTAL,
    PER_ADDRESS,
    HANDSHAKING,
    HANDSHAKING_PER_ADDRESS
  }

  /**
   * What to do with a connection just accepted.
   *
   * @param refused why it must be closed at once, if it must
   * @param evicted a handshaking connection to close to make room for it, if one must
   */
  record Admission<C>(Optional<Refusal> refused, Optional<C> evicted) {}

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionCaps.class);

  private final ConnectionLimits limits;
  private final Map<C, InetAddress> open = new HashMap<>();
  private final Map<InetAddress, Integer> openFrom = new HashMap<>();
  // Handshaking connections, oldest first.
  private final LinkedHashMap<C, InetAddress> handshaking = new LinkedHashMap<>();
  private final Map<InetAddress, Integer> handshakingFrom = new HashMap<>();
  private final RefusalCounter<Refusal> refusals;

  ConnectionCaps(ConnectionLimits limits, Clock clock) {
    this.limits = limits;
    this.refusals = new RefusalCounter<>(Refusal.class, clock::millis);
  }

  /** Counts {@code connection}, just accepted from {@code source}, unless it is refused. */
  synchronized Admission<C> admit(C connection, InetAddress source) {
    if (open.size() >= limits.max()) {
      return refuse(Refusal.TOTAL, source);
    }
    if (openFrom.getOrDefault(source, 0) >= limits.maxPerAddress()) {
      return refuse(Refusal.PER_ADDRESS, source);
    }
    Optional<C> evicted = Optional.empty();
    if (handshakingFrom.getOrDefault(source, 0) >= limits.maxHandshakingPerAddress()) {
      evicted = evictOldest(source, Refusal.HANDSHAKING_PER_ADDRESS);
    } else if (handshaking.size() >= limits.maxHandshaking()) {
      evicted = evictOldest(null, Refusal.HANDSHAKING);
    }
    open.put(connection, source);
    openFrom.merge(source, 1, Integer::sum);
    handshaking.put(connection, source);
    handshakingFrom.merge(source, 1, Integer::sum);
    return new Admission<>(Optional.empty(), evicted);
  }

  /** {@code connection} finished its handshake: it no longer counts as handshaking. */
  synchronized void handshaken(C connection) {
    InetAddress source = handshaking.remove(connection);
    if (source != null) {
      decrement(handshakingFrom, source);
    }
  }

  /** {@code connection} closed, for whatever reason. */
  synchronized void closed(C connection) {
    handshaken(connection);
    InetAddress source = open.remove(connection);
    if (source != null) {
      decrement(openFrom, source);
    }
  }

  /** Connections refused or closed so far, by the metric's reason label. */
  Map<String, Long> refusals() {
    return refusals.byLabel();
  }

  synchronized int open() {
    return open.size();
  }

  synchronized int handshaking() {
    return handshaking.size();
  }

  /** The oldest handshaking connection (of {@code source}, or of all when null), forgotten. */
  private Optional<C> evictOldest(@Nullable InetAddress source, Refusal reason) {
    Iterator<Map.Entry<C, InetAddress>> oldestFirst = handshaking.entrySet().iterator();
    while (oldestFirst.hasNext()) {
      Map.Entry<C, InetAddress> entry = oldestFirst.next();
      if (source == null || entry.getValue().equals(source)) {
        oldestFirst.remove();
        decrement(handshakingFrom, entry.getValue());
        count(reason, entry.getValue());
        return Optional.of(entry.getKey());
      }
    }
    return Optional.empty();
  }

  private Admission<C> refuse(Refusal reason, InetAddress source) {
    count(reason, source);
    return new Admission<>(Optional.of(reason), Optional.empty());
  }

  private void count(Refusal reason, InetAddress source) {
    refusals.count(
        reason,
        total ->
            LOG.warn(
                "gRPC connection from {} closed: over the cap of {} ({} open, {} handshaking; {}"
                    + " closed for this reason so far; General.Connections)",
                source.getHostAddress(),
                describe(reason),
                open.size(),
                handshaking.size(),
                total));
  }

  private String describe(Refusal reason) {
    return switch (reason) {
      case TOTAL -> limits.max() + " connections";
      case PER_ADDRESS -> limits.maxPerAddress() + " connections per address";
      case HANDSHAKING -> limits.maxHandshaking() + " handshaking connections";
      case HANDSHAKING_PER_ADDRESS ->
          limits.maxHandshakingPerAddress() + " handshaking connections per address";
    };
  }

  private static void decrement(Map<InetAddress, Integer> counts, InetAddress source) {
    counts.computeIfPresent(source, (address, count) -> count > 1 ? count - 1 : null);
  }
}
