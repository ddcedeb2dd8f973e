package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.Identity;
import io.rubinbft.net.Interest;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.SelectionKey;
import io.rubinbft.net.Selector;
import io.rubinbft.net.SendResult;
import io.rubinbft.net.ServerChannel;
import io.rubinbft.net.TestIdentities;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connect race seen under load (SHM.md, "A send on a pair not yet connected"): the acceptor
 * accepts and its HELLO lands in the connector's posted receive between the connector's poll of its
 * connection events and its poll of the receive completions. The connector's transport must hold
 * that completion until the connection is established there; handing it up at once made the channel
 * answer the HELLO on a pair still PENDING, and shm refused the send ("queue pair 0 is not
 * connected yet"). Here the interleaving is forced on every connect of seeded schedules, single
 * threaded: the acceptor's selector runs inside the connector's poll of its connection events.
 */
class ShmConnectorSeesHelloFirstTest {

  private static final int CONNECTS = 16;
  private static final int MAX_TURNS = 10_000;

  @TempDir Path root;

  private final Identity server = TestIdentities.create("acceptor");
  private final Identity client = TestIdentities.create("connector");

  @Test
  void theConnectorOpensWhenThePeersHelloArrivesBeforeItsAccept() throws IOException {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int connect = 0; connect < CONNECTS; connect++) {
      String context = "seed=" + seed + " connect " + connect;
      try (Selector acceptor = selector(ShmVerbsDevice.open(ShmOptions.defaults(root)), server);
          InterleavingDevice device =
              new InterleavingDevice(ShmVerbsDevice.open(ShmOptions.defaults(root)));
          Selector connector = selector(device, client)) {
        ServerChannel listener =
            acceptor.listen(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), pinned(client));
        listener.key().addInterest(Interest.ACCEPT);
        List<Channel> accepted = new ArrayList<>();
        // The acceptor runs 1 to 3 turns inside the connector's first events poll that finds its
        // request unanswered: it picks the request up, accepts, and its HELLO is delivered.
        device.interleave(
            random.nextInt(3) + 1, () -> acceptor.selectNow(key -> acceptInto(key, accepted)));
        Channel channel = connector.connect(listener.localAddress(), pinned(server));
        for (int turn = 0; channel.state() != ChannelState.OPEN; turn++) {
          assertThat(channel.state())
              .as(context + ": " + channel.closeReason().orElse(""))
              .isNotEqualTo(ChannelState.CLOSED);
          assertThat(turn).as(context + ": turns to open").isLessThan(MAX_TURNS);
          connector.selectNow(key -> {});
          if (random.nextBoolean()) {
            acceptor.selectNow(key -> acceptInto(key, accepted));
          }
        }
        assertThat(device.interleaved()).as(context + ": the acceptor ran first").isTrue();
        roundTrip(context, connector, channel, acceptor, accepted);
      }
    }
  }

  private static void acceptInto(SelectionKey key, List<Channel> accepted) {
    if (key.isReady(Interest.ACCEPT)) {
      key.serverChannel().accept().ifPresent(accepted::add);
    }
  }

  /** A message each way on the new channel: it is really open on both sides. */
  private static void roundTrip(
      String context,
      Selector connector,
      Channel channel,
      Selector acceptor,
      List<Channel> accepted)
      throws IOException {
    UnsafeBuffer message = new UnsafeBuffer(new byte[] {1, 2, 3});
    assertThat(channel.offer(message, 0, 3)).isEqualTo(SendResult.SENT);
    List<byte[]> received = new ArrayList<>();
    for (int turn = 0; received.isEmpty(); turn++) {
      assertThat(turn).as(context + ": turns to deliver").isLessThan(MAX_TURNS);
      connector.selectNow(key -> {});
      acceptor.selectNow(key -> {});
      for (Channel in : accepted) {
        in.poll((buffer, offset, length) -> received.add(copy(buffer, offset, length)), 1);
      }
    }
    assertThat(received.getFirst()).as(context).containsExactly(1, 2, 3);
  }

  private static byte[] copy(DirectBuffer buffer, int offset, int length) {
    byte[] bytes = new byte[length];
    buffer.getBytes(offset, bytes);
    return bytes;
  }

  private static Selector selector(VerbsDevice device, Identity identity) throws VerbsException {
    return Selector.open(VerbsTransport.open(device, 4096, 256), ChannelConfig.defaults(identity));
  }

  private static PeerAuthenticator pinned(Identity peer) {
    return PeerAuthenticator.pinned(List.of(peer.certificate()));
  }

  /** What the other side does, run inside this side's poll. */
  @FunctionalInterface
  private interface Step {
    void run() throws IOException;
  }

  /**
   * A shm device that, once, lets the other side run right after a connection-events poll that
   * found nothing, and before the transport polls its completion queues.
   */
  private static final class InterleavingDevice implements VerbsDevice {
    private final ShmVerbsDevice device;
    private Step step;
    private int turns;
    private boolean interleaved;

    InterleavingDevice(ShmVerbsDevice device) {
      this.device = device;
    }

    void interleave(int turns, Step step) {
      this.turns = turns;
      this.step = step;
    }

    boolean interleaved() {
      return interleaved;
    }

    @Override
    public int pollConnectionEvents(ConnectionEventHandler handler) throws VerbsException {
      int events = device.pollConnectionEvents(handler);
      if (events == 0 && step != null && !interleaved) {
        interleaved = true;
        try {
          for (int i = 0; i < turns; i++) {
            step.run();
          }
        } catch (IOException e) {
          throw new VerbsException("the interleaved step failed: " + e.getMessage(), e);
        }
      }
      return events;
    }

    @Override
    public String name() {
      return device.name();
    }

    @Override
    public RegisteredMemory register(long bytes) throws VerbsException {
      return device.register(bytes);
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity) throws VerbsException {
      return device.createCompletionQueue(capacity);
    }

    @Override
    public ConnectionListener listen(InetSocketAddress address, QueuePairSpec spec)
        throws VerbsException {
      return device.listen(address, spec);
    }

    @Override
    public PendingConnection connect(
        InetSocketAddress address, QueuePairSpec spec, byte[] privateData) throws VerbsException {
      return device.connect(address, spec, privateData);
    }

    @Override
    public int maxPrivateDataBytes() {
      return device.maxPrivateDataBytes();
    }

    @Override
    public void close() {
      device.close();
    }
  }
}
