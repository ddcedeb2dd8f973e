package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.VerbsException;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import org.jspecify.annotations.Nullable;

/**
 * Where a device's idle poller sleeps in the kernel: a java.nio selector over a Unix domain socket
 * {@code dev-KEY/bell.sock} that each peer queue pair connects to, plus the device's {@link
 * DoorbellWord}. A peer that gives this device work while the word says ASLEEP writes one byte on
 * its connection, which ends the select; {@link #wakeup} ends it from this process. A connection
 * that closes (its pair closed, or its process died) ends the select too and is reported, so a dead
 * peer is probed at once rather than at the next liveness interval.
 *
 * <p>Why a Unix domain stream socket: the sleeper must block with a timeout and be woken by
 * unrelated processes and by its own threads. An eventfd cannot be shared without passing
 * descriptors; java.nio has no Unix datagram channel; a FIFO cannot join a java.nio selector and
 * has no timed read; a futex on the shared word needs native calls. A socket needs none of these:
 * it joins the same selector whose {@code wakeup()} the device's own threads use, and its hang-up
 * tells of a peer's death for free.
 */
final class Doorbell implements AutoCloseable {

  /** Most peer connections held: one per peer queue pair, as many as a device has pairs. */
  static final int MAX_CONNECTIONS = ShmVerbsDevice.MAX_QUEUE_PAIRS;

  /** Linux's {@code sun_path} holds 108 bytes, the last a terminating zero. */
  static final int MAX_SOCKET_PATH_BYTES = 107;

  private final DoorbellWord word;
  private final Arena arena;
  private final Path socketPath;
  private final ServerSocketChannel server;
  private final Selector selector;
  private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
  private int connections;

  private Doorbell(
      DoorbellWord word,
      Arena arena,
      Path socketPath,
      ServerSocketChannel server,
      Selector selector) {
    this.word = word;
    this.arena = arena;
    this.socketPath = socketPath;
    this.server = server;
    this.selector = selector;
  }

  /** Creates the device's bell file and binds its socket. */
  static Doorbell open(DeviceDirectory directory, long deviceKey) throws VerbsException {
    Path socketPath = directory.doorbellSocket(deviceKey);
    int pathBytes = socketPath.toString().getBytes(StandardCharsets.UTF_8).length;
    if (pathBytes > MAX_SOCKET_PATH_BYTES) {
      throw new VerbsException(
          "the doorbell socket path "
              + socketPath
              + " is "
              + pathBytes
              + " bytes but a Unix socket address holds at most "
              + MAX_SOCKET_PATH_BYTES
              + ": choose a shorter shm directory");
    }
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    ServerSocketChannel server = null;
    try {
      DoorbellWord word =
          DoorbellWord.initialize(
              directory.createMapped(
                  directory.doorbell(deviceKey), DoorbellWord.FILE_BYTES, arena));
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socketPath), MAX_CONNECTIONS);
      ShmPermissions.restrict(socketPath);
      server.configureBlocking(false);
      Selector selector = Selector.open();
      server.register(selector, SelectionKey.OP_ACCEPT);
      return new Doorbell(word, arena, socketPath, server, selector);
    } catch (IOException e) {
      closeQuietly(server);
      arena.close();
      throw e instanceof VerbsException verbsException
          ? verbsException
          : new VerbsException(
              "cannot open the doorbell socket " + socketPath + ": " + e.getMessage(), e);
    }
  }

  /** Tells peers to ring from now on; the caller then looks at its rings once more. */
  void arm() {
    word.markAsleep();
  }

  /** Peers need not ring: the look after {@link #arm} found work. */
  void disarm() {
    word.markAwake();
  }

  /**
   * Sleeps until a peer rings or hangs up, {@link #wakeup} is called, or {@code timeoutNanos} pass;
   * returns disarmed. Returns whether a peer connection closed (its process may have died).
   */
  boolean await(long timeoutNanos) throws VerbsException {
    try {
      if (timeoutNanos <= 0) {
        selector.selectNow();
      } else {
        // Rounded up: select(0) would wait forever, and a shorter wait would only poll again.
        selector.select(Math.ceilDiv(timeoutNanos, 1_000_000));
      }
      return handleSelected();
    } catch (IOException e) {
      throw new VerbsException("the doorbell " + socketPath + " failed: " + e.getMessage(), e);
    } finally {
      word.markAwake();
    }
  }

  /** Ends a waiting {@link #await} at once, or the next one's wait. Any thread. */
  void wakeup() {
    selector.wakeup();
  }

  private boolean handleSelected() throws IOException {
    boolean hungUp = false;
    Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
    while (keys.hasNext()) {
      SelectionKey key = keys.next();
      keys.remove();
      if (key.channel() == server) {
        acceptAll();
      } else if (!drain((SocketChannel) key.channel())) {
        key.cancel();
        closeQuietly(key.channel());
        connections--;
        hungUp = true;
      }
    }
    return hungUp;
  }

  private void acceptAll() throws IOException {
    SocketChannel peer;
    while ((peer = server.accept()) != null) {
      if (connections >= MAX_CONNECTIONS) {
        // A peer past the limit is not rung awake; it still sees the work at its timed wake.
        closeQuietly(peer);
        continue;
      }
      peer.configureBlocking(false);
      peer.register(selector, SelectionKey.OP_READ);
      connections++;
    }
  }

  /** Reads the rings waiting on {@code peer}; false when it hung up. */
  private boolean drain(SocketChannel peer) {
    try {
      int read;
      do {
        drain.clear();
        read = peer.read(drain);
      } while (read > 0);
      return read == 0;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    for (SelectionKey key : selector.keys()) {
      closeQuietly(key.channel());
    }
    closeQuietly(selector);
    closeQuietly(server);
    DeviceDirectory.deleteQuietly(socketPath);
    arena.close();
  }

  static void closeQuietly(@Nullable Closeable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (IOException e) {
      // Closing only releases descriptors; nothing to recover.
    }
  }
}
