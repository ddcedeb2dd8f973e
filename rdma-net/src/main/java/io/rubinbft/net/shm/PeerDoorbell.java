package io.rubinbft.net.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.jspecify.annotations.Nullable;

/**
 * A queue pair's way to wake the peer device it gives work to: the peer's {@link DoorbellWord},
 * mapped, and a connection to its {@link Doorbell} socket, both opened at connection setup. {@link
 * #ring} costs a fence and a load while the peer is awake (under load: it is polling), and one
 * non-blocking write when it sleeps.
 */
final class PeerDoorbell implements AutoCloseable {

  private final long deviceKey;
  private final DoorbellWord word;
  private final ByteBuffer ring = ByteBuffer.allocateDirect(1);
  private @Nullable SocketChannel socket;

  private PeerDoorbell(long deviceKey, DoorbellWord word, SocketChannel socket) {
    this.deviceKey = deviceKey;
    this.word = word;
    this.socket = socket;
  }

  /**
   * Connects to device {@code deviceKey}'s doorbell, mapping its word into {@code arena}; null when
   * it cannot be reached (gone, or a faulty file): that peer then sees this side's work only when
   * it wakes on its own, at the latest at its next liveness check.
   */
  static @Nullable PeerDoorbell open(DeviceDirectory directory, long deviceKey, Arena arena) {
    SocketChannel socket = null;
    try {
      DoorbellWord word =
          new DoorbellWord(directory.mapExisting(directory.doorbell(deviceKey), arena));
      if (word.invalidReason().isPresent()) {
        return null;
      }
      socket = SocketChannel.open(StandardProtocolFamily.UNIX);
      socket.configureBlocking(false);
      // A Unix socket connects at once or not at all (a full backlog): never left pending.
      if (!socket.connect(UnixDomainSocketAddress.of(directory.doorbellSocket(deviceKey)))) {
        Doorbell.closeQuietly(socket);
        return null;
      }
      return new PeerDoorbell(deviceKey, word, socket);
    } catch (IOException | RuntimeException e) {
      Doorbell.closeQuietly(socket);
      return null;
    }
  }

  long deviceKey() {
    return deviceKey;
  }

  /** Call after publishing work for the peer: wakes it if it sleeps (or is about to). */
  void ring() {
    if (socket == null || !word.takeSleeper()) {
      return;
    }
    try {
      // A full socket buffer writes nothing, and needs nothing: unread rings already wake it.
      socket.write(ring.clear());
    } catch (IOException e) {
      // The peer closed its doorbell (it is closing or dead): its pairs learn that another way.
      close();
    }
  }

  @Override
  public void close() {
    Doorbell.closeQuietly(socket);
    socket = null;
  }
}
