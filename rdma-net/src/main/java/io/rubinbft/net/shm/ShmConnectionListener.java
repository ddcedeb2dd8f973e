package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.QueuePairSpec;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/** A listening endpoint: its file in the device directory and the spec its accepted pairs get. */
final class ShmConnectionListener implements ConnectionListener {

  private final ShmConnections connections;
  private final InetSocketAddress address;
  private final QueuePairSpec spec;
  private final ListenerFile file;
  private final Arena arena;
  private final Path path;
  private boolean closed;

  ShmConnectionListener(
      ShmConnections connections,
      InetSocketAddress address,
      QueuePairSpec spec,
      ListenerFile file,
      Arena arena,
      Path path) {
    this.connections = connections;
    this.address = address;
    this.spec = spec;
    this.file = file;
    this.arena = arena;
    this.path = path;
  }

  @Override
  public InetSocketAddress localAddress() {
    return address;
  }

  QueuePairSpec spec() {
    return spec;
  }

  /**
   * Hands every waiting request to {@code sink}; returns how many it took. Stops if the sink closes
   * this listener, whose file is then unmapped.
   */
  int drain(ListenerFile.RequestSink sink) {
    int taken = 0;
    for (int slot = 0; slot < file.backlog() && !closed; slot++) {
      if (file.take(slot, sink)) {
        taken++;
      }
    }
    return taken;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    file.markClosed();
    DeviceDirectory.deleteQuietly(path);
    arena.close();
    connections.forget(this);
  }

  @Override
  public String toString() {
    return "shm listener at " + address.getHostString() + ":" + address.getPort();
  }
}
