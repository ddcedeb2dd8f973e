package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.BackgroundCall;
import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.Identity;
import io.rubinbft.net.Interest;
import io.rubinbft.net.OpenChannel;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.Received;
import io.rubinbft.net.Selector;
import io.rubinbft.net.SendResult;
import io.rubinbft.net.ServerChannel;
import io.rubinbft.net.TestIdentities;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two shm selectors with an open channel between them and nothing to say: each sleeps in the kernel
 * on its device's doorbell, and a message wakes the receiving one. Liveness probes are an hour
 * apart, so nothing but the doorbell can end a sleep early. Bounds on futures are liveness guards,
 * not speed checks.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ShmIdleSelectorTest {

  private static final long TEN_MINUTES_MILLIS = 600_000;

  /**
   * How long each select of the measuring loop waits at most, so that the loop can end: the timeout
   * the orderer's cluster network used before it waited with none.
   */
  private static final long IDLE_SELECT_MILLIS = 100;

  private static final long IDLE_MEASURE_NANOS = TimeUnit.SECONDS.toNanos(2);

  /**
   * One percent of a core: polling with parks cost several percent per idle selector
   * (bench/journal/2026-11-21-02-rdma-net-echo.md), sleeping on the doorbell costs hundredths of a
   * percent, so this bound is far from both.
   */
  private static final double MAX_IDLE_SHARE_OF_A_CORE = 0.01;

  @TempDir Path root;

  private Selector server;
  private Selector client;
  private ServerChannel listener;
  private Identity serverIdentity;
  private Channel clientSide;
  private Channel serverSide;

  @BeforeEach
  void connect() throws IOException {
    serverIdentity = TestIdentities.create("replica-0");
    Identity clientIdentity = TestIdentities.create("replica-1");
    server = selector(serverIdentity);
    client = selector(clientIdentity);
    OpenChannel channel = OpenChannel.open(server, serverIdentity, client, clientIdentity);
    listener = channel.listener();
    clientSide = channel.clientSide();
    serverSide = channel.serverSide();
  }

  private Selector selector(Identity identity) throws IOException {
    ShmOptions options = ShmOptions.defaults(root).withLivenessCheckInterval(Duration.ofHours(1));
    return Selector.open(
        VerbsTransport.open(ShmVerbsDevice.open(options), 4096, 256),
        new ChannelConfig(identity, 8, 8, 16 * 1024, 1 << 20, 16));
  }

  @AfterEach
  void close() {
    client.close();
    server.close();
  }

  @Test
  void aSelectorWaitingWithoutEndIsWokenByASendFromAnotherThread() throws Exception {
    Received received = new Received();
    serverSide.key().addInterest(Interest.RECEIVE);
    CompletableFuture<Integer> select =
        onThread(
            () -> {
              while (received.count() == 0) {
                server.select(
                    key -> key.channel().poll(received, Integer.MAX_VALUE), TEN_MINUTES_MILLIS);
              }
              return received.count();
            });
    Thread.sleep(200);
    assertThat(select).as("nothing to do: still waiting").isNotDone();

    byte[] message = "wake up".getBytes(StandardCharsets.UTF_8);
    assertThat(clientSide.offer(new UnsafeBuffer(message), 0, message.length))
        .isEqualTo(SendResult.SENT);
    client.flush();

    assertThat(select.get(1, TimeUnit.MINUTES)).isEqualTo(1);
    assertThat(received.messages.getFirst()).isEqualTo(message);
  }

  /**
   * The request lands in the listener's inbox and rings its device; the handshake's frames ring
   * each side in turn. The client polls with short timeouts, for at most a minute (a guard).
   */
  @Test
  void aListenerWaitingWithoutEndIsWokenByAConnectRequest() throws Exception {
    List<Channel> accepted = new ArrayList<>();
    CompletableFuture<Integer> select =
        onThread(
            () -> {
              while (accepted.isEmpty()) {
                server.select(
                    key -> key.serverChannel().accept().ifPresent(accepted::add),
                    TEN_MINUTES_MILLIS);
              }
              return accepted.size();
            });
    Thread.sleep(200);
    assertThat(select).as("nothing to do: still waiting").isNotDone();

    Channel second =
        client.connect(
            listener.localAddress(),
            PeerAuthenticator.pinned(List.of(serverIdentity.certificate())));
    long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (second.state() != ChannelState.OPEN && System.nanoTime() - giveUp < 0) {
      client.select(key -> {}, 10);
    }

    assertThat(second.state()).isEqualTo(ChannelState.OPEN);
    assertThat(select.get(1, TimeUnit.MINUTES)).isEqualTo(1);
  }

  @Test
  void idleSelectorsSpendAlmostNoCpu() throws Exception {
    CompletableFuture<Double> serverShare = onThread(() -> idleShareOfACore(server));
    CompletableFuture<Double> clientShare = onThread(() -> idleShareOfACore(client));
    double serverIdle = serverShare.get(1, TimeUnit.MINUTES);
    double clientIdle = clientShare.get(1, TimeUnit.MINUTES);
    System.out.printf(
        Locale.ROOT,
        "idle shm selector CPU, select(%d ms) for %d s: server %.3f %%, client %.3f %% of a core%n",
        IDLE_SELECT_MILLIS,
        TimeUnit.NANOSECONDS.toSeconds(IDLE_MEASURE_NANOS),
        serverIdle * 100,
        clientIdle * 100);
    assertThat(serverIdle).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);
    assertThat(clientIdle).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);
  }

  /** The CPU time this thread spends selecting on an idle {@code selector}, per wall time. */
  private static double idleShareOfACore(Selector selector) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    while (System.nanoTime() - start < IDLE_MEASURE_NANOS) {
      selector.select(key -> {}, IDLE_SELECT_MILLIS);
    }
    long elapsed = System.nanoTime() - start;
    return (double) (threads.getCurrentThreadCpuTime() - cpuBefore) / elapsed;
  }

  private static <T> CompletableFuture<T> onThread(Callable<T> work) {
    return BackgroundCall.start(work).result();
  }
}
