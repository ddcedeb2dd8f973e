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

  ListenerFile file() {
    return file;
  }

  boolean isClosed() {
    return closed;
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
