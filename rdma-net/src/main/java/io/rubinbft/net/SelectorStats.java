package io.rubinbft.net;

import java.util.List;
import java.util.Map;

/**
 * A selector's counters at one moment, as plain data.
 *
 * @param transport the transport's name
 * @param connectsStarted outgoing connections started
 * @param reconnects outgoing connections to an address connected to before
 * @param accepted incoming connections that completed the handshake
 * @param handshakesRejected connections closed because the handshake failed
 * @param acceptsRefused incoming connections closed unauthenticated to make room for a newer one
 *     (the accept backlog in total or per source address was full), or because the backlog of
 *     authenticated connections waiting for {@link ServerChannel#accept()} was full
 * @param handshakesTimedOut connections closed because they were not authenticated both ways within
 *     the handshake deadline
 * @param linksFailedOnError channels closed because handling them threw
 * @param dropped frames dropped on every channel this selector has had, by reason
 * @param channels the live channels
 */
public record SelectorStats(
    String transport,
    long connectsStarted,
    long reconnects,
    long accepted,
    long handshakesRejected,
    long acceptsRefused,
    long handshakesTimedOut,
    long linksFailedOnError,
    Map<DropReason, Long> dropped,
    List<ChannelStats> channels) {

  /** Frames dropped for {@code reason} on every channel. */
  public long dropped(DropReason reason) {
    return dropped.getOrDefault(reason, 0L);
  }
}
