package io.rubinbft.net.transport;

import io.rubinbft.net.frame.FrameFlyweight;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One connection's frame pipe with its fixed rings: a send ring of {@code sendSlots} frames and a
 * receive ring of {@code receiveSlots} frames, each of {@code maxFrameBytes}, allocated when the
 * link is made. A link knows where frames start and end, and nothing of what is in them; the caller
 * guarantees (by credit) that no frame is sent into a receive slot the peer has not posted.
 */
public interface Link extends AutoCloseable {

  LinkSizes sizes();

  InetSocketAddress remoteAddress();

  /** Where the selector keeps its own state for this link. */
  void attach(Object attachment);

  Object attachment();

  /**
   * The peer has proved its identity and its session key: the link may now take frames of up to
   * {@code maxFrameBytes} each way. A transport may hold only handshake-sized buffers ({@link
   * LinkSizes#handshakeFrameBytes}) until then, so a stranger's connection costs little; one that
   * posts its rings when the link is made has nothing to do.
   *
   * @throws OutOfMemoryError when the rings cannot be allocated (the caller closes the link)
   */
  default void authenticated() {}

  /** Whether {@link #claim} would succeed now. */
  boolean canClaim();

  /**
   * Wraps {@code frame} over free send space of {@code maxFrameBytes}, or returns false when the
   * send ring is full (frames wait for the wire or for send completions).
   */
  boolean claim(FrameFlyweight frame);

  /** Queues the claimed frame, of {@code frameLength} bytes, for the next {@link #flush}. */
  void commit(int frameLength);

  /**
   * Posts released receive slots again, then hands queued frames to the wire, in one batch where
   * the transport allows. Returns true when nothing is left queued; otherwise {@link
   * LinkEvents#writable} follows when there is room again.
   */
  boolean flush() throws IOException;

  /**
   * Hands up to {@code limit} newly arrived frames to {@code sink}, in order; returns how many.
   *
   * @throws IOException when the link broke, e.g. the peer closed it
   */
  int receive(FrameSink sink, int limit) throws IOException;

  /** Whether frames are held for {@link #deliverHeld}. */
  boolean hasHeld();

  /** Hands up to {@code limit} held frames to {@code handler}, oldest first, releasing each. */
  int deliverHeld(HeldFrameHandler handler, int limit);

  @Override
  void close();
}
