package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * A {@link ShmEchoPeer} in a child JVM started with this JVM's java binary and class path, and the
 * parent's side of connecting to it.
 */
final class EchoChild implements AutoCloseable {

  final Process process;
  private final InetSocketAddress address;

  private EchoChild(Process process, int port) {
    this.process = process;
    this.address = new InetSocketAddress("127.0.0.1", port);
  }

  /** Starts the child; its output goes to {@code root/child.log}. */
  static EchoChild start(Path root, int port, int slotBytes) throws IOException {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ShmEchoPeer.class.getName(),
                root.toString(),
                Integer.toString(port),
                Integer.toString(slotBytes))
            .redirectErrorStream(true)
            .redirectOutput(root.resolve("child.log").toFile())
            .start();
    return new EchoChild(process, port);
  }

  /** Connects {@code endpoint} to the child, retrying while it has not started listening yet. */
  void connect(Endpoint endpoint) throws VerbsException, InterruptedException {
    while (true) {
      PendingConnection connection = endpoint.device.connect(address, endpoint.spec, new byte[0]);
      endpoint.pair = connection.queuePair();
      int seen = endpoint.events.events.size();
      while (endpoint.events.events.size() == seen) {
        assertThat(process.isAlive()).as("child is alive (see child.log)").isTrue();
        endpoint.device.pollConnectionEvents(endpoint.events);
        Thread.yield();
      }
      if (endpoint.events.established.contains(connection)) {
        return;
      }
      endpoint.pair.close();
      Thread.sleep(20);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
