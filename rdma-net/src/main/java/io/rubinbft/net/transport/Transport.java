package io.rubinbft.net.transport;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A way to move frames between replicas: tcp, shm or rdma. The selector above drives it from one
 * thread; a transport never blocks except inside {@link #poll} when asked to wait, and never
 * allocates per frame. Frames cross a {@link Link} slot by slot; everything above (framing rules,
 * credit, encryption, fragmentation) is written once in the selector, so every transport behaves
 * alike.
 */
public interface Transport extends AutoCloseable {

  /** A {@link #poll} timeout that means no timeout: wait until something happens or a wakeup. */
  long WAIT_FOREVER = Long.MAX_VALUE;

  /** A name for logs and stats, e.g. {@code tcp}. */
  String name();

  /**
   * The wire family the handshake binds both sides to: the name up to its first ':' ({@code tcp},
   * {@code verbs} for shm and rdma), the same whatever device each side has.
   */
  default String family() {
    String name = name();
    int colon = name.indexOf(':');
    return colon < 0 ? name : name.substring(0, colon);
  }

  /** Starts listening; accepted links arrive through {@link LinkEvents#accepted}. */
  LinkListener listen(InetSocketAddress address, LinkSizes sizes) throws IOException;

  /**
   * Starts connecting without blocking; {@link LinkEvents#established} or {@link LinkEvents#failed}
   * follows. The link's receive slots are ready before the peer can send.
   */
  Link connect(InetSocketAddress address, LinkSizes sizes) throws IOException;

  /**
   * Performs pending I/O and reports it to {@code events}; when nothing is pending, waits up to
   * {@code timeoutNanos} (zero: not at all; {@link #WAIT_FOREVER}: with no timeout) for something
   * to happen. Returns how many events.
   */
  int poll(LinkEvents events, long timeoutNanos) throws IOException;

  /**
   * Makes a {@link #poll} that is waiting return at once, or the next one not wait. The one method
   * any thread may call.
   */
  void wakeup();

  @Override
  void close();
}
