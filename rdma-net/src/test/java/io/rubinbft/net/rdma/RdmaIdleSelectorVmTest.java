package io.rubinbft.net.rdma;

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
import io.rubinbft.net.TestIdentities;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two rdma selectors (Soft-RoCE in the guest of scripts/rdma-vm-tests.sh) with an open channel and
 * nothing to say: a selector waiting with no timeout sleeps in the kernel on its device's
 * completion and rdma_cm channels, so its thread spends almost no CPU, and a wakeup, a message, a
 * connect request or a peer's disconnect ends the sleep. The selects wait with no timeout, so only
 * the event channel can end them; the bounds on futures are liveness guards, not speed checks.
 */
@Tag("rdma-vm")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RdmaIdleSelectorVmTest {

  private static final long IDLE_MEASURE_NANOS = TimeUnit.SECONDS.toNanos(2);

  /**
   * One percent of a core: a poller parking at most 100 us at a time costs several percent even
   * natively (bench/journal/2026-11-21-14-shm-doorbell.md) and far more under the guest's
   * emulation, while a thread asleep in poll(2) costs nothing, so this bound is far from both.
   */
  private static final double MAX_IDLE_SHARE_OF_A_CORE = 0.01;

  /** More than FfmCompletionQueue's acknowledgement batch (16), twice over and a remainder. */
  private static final int SLEEPS = 40;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private Selector server;
  private Selector client;
  private Transport clientTransport;
  private Identity serverIdentity;
  private OpenChannel channel;

  @BeforeEach
  void connect() throws IOException {
    serverIdentity = TestIdentities.create("replica-0");
    Identity clientIdentity = TestIdentities.create("replica-1");
    server = Selector.open(transport(), config(serverIdentity));
    clientTransport = transport();
    client = Selector.open(clientTransport, config(clientIdentity));
    channel = OpenChannel.open(server, serverIdentity, client, clientIdentity);
  }

  private static Transport transport() throws IOException {
    FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults());
    return new SoftRoceAddresses(
        VerbsTransport.open(device, 4096, 256), SoftRoce.anyPort().getAddress());
  }

  private static ChannelConfig config(Identity identity) {
    return new ChannelConfig(identity, 8, 8, 16 * 1024, 1 << 20, 16);
  }

  @AfterEach
  void close() {
    client.close();
    server.close();
  }

  /**
   * Both ends wait with no timeout; each thread's CPU is measured, then a wakeup ends each wait.
   */
  @Test
  void idleSelectorsSleepUntilWokenFromAnotherThread() throws Exception {
    Waiting serverWait = Waiting.start(() -> server.select(key -> {}));
    Waiting clientWait = Waiting.start(() -> client.select(key -> {}));

    double serverIdle = serverWait.shareOfACoreWhileWaiting();
    double clientIdle = clientWait.shareOfACoreWhileWaiting();
    System.out.printf(
        Locale.ROOT,
        "idle rdma selector CPU, select() for %d s: server %.3f %%, client %.3f %% of a core%n",
        TimeUnit.NANOSECONDS.toSeconds(IDLE_MEASURE_NANOS),
        serverIdle * 100,
        clientIdle * 100);
    assertThat(serverIdle).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);
    assertThat(clientIdle).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);

    server.wakeup();
    client.wakeup();
    assertThat(serverWait.result.get(1, TimeUnit.MINUTES)).isZero();
    assertThat(clientWait.result.get(1, TimeUnit.MINUTES)).isZero();
  }

  @Test
  void aSleepingSelectorIsWokenByAMessage() throws Exception {
    Received received = new Received();
    channel.serverSide().key().addInterest(Interest.RECEIVE);
    Waiting wait =
        Waiting.start(
            () -> {
              while (received.count() == 0) {
                server.select(key -> key.channel().poll(received, Integer.MAX_VALUE));
              }
              return received.count();
            });
    assertThat(wait.shareOfACoreWhileWaiting()).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);

    byte[] message = "wake up".getBytes(StandardCharsets.UTF_8);
    assertThat(channel.clientSide().offer(new UnsafeBuffer(message), 0, message.length))
        .isEqualTo(SendResult.SENT);
    client.flush();

    assertThat(wait.result.get(1, TimeUnit.MINUTES)).isEqualTo(1);
    assertThat(received.messages.getFirst()).isEqualTo(message);
  }

  /**
   * More sleeps than the event acknowledgement batch: each message after a pause wakes the sleeping
   * selector through a completion event (the client's window is used up several times over, so
   * credit flows back too), and the devices then close without waiting, which ibv_destroy_cq would
   * do for ever on an event taken but never acknowledged. The pause only lets the receiver fall
   * asleep; nothing is timed.
   */
  @Test
  void manySleepsEachEndedByAMessageThenCloseAcknowledgesEveryEvent() throws Exception {
    Received received = new Received();
    channel.serverSide().key().addInterest(Interest.RECEIVE);
    for (int round = 1; round <= SLEEPS; round++) {
      int expected = round;
      Waiting wait =
          Waiting.start(
              () -> {
                while (received.count() < expected) {
                  server.select(key -> key.channel().poll(received, Integer.MAX_VALUE));
                }
                return received.count();
              });
      Thread.sleep(20);
      byte[] message = ("round " + round).getBytes(StandardCharsets.UTF_8);
      assertThat(offerTakingCredit(message)).isEqualTo(SendResult.SENT);
      client.flush();
      assertThat(wait.result.get(1, TimeUnit.MINUTES)).isEqualTo(round);
      assertThat(received.messages.getLast()).isEqualTo(message);
    }
    client.close();
    server.close();
  }

  /**
   * Offers {@code message}, letting the client take the credit the server returns when its window
   * is used up (the client announces it is blocked, which wakes the server); a two-minute guard.
   */
  private SendResult offerTakingCredit(byte[] message) throws IOException {
    UnsafeBuffer buffer = new UnsafeBuffer(message);
    long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    SendResult result;
    while ((result = channel.clientSide().offer(buffer, 0, message.length))
            == SendResult.BACK_PRESSURED
        && System.nanoTime() - giveUp < 0) {
      client.select(key -> {}, 10);
    }
    return result;
  }

  /** A connect request is an rdma_cm event: no completion rings for it. */
  @Test
  void aSleepingListenerIsWokenByAConnectRequest() throws Exception {
    List<Channel> accepted = new ArrayList<>();
    Waiting wait =
        Waiting.start(
            () -> {
              while (accepted.isEmpty()) {
                server.select(key -> key.serverChannel().accept().ifPresent(accepted::add));
              }
              return accepted.size();
            });
    assertThat(wait.shareOfACoreWhileWaiting()).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);

    Channel second =
        client.connect(
            channel.listener().localAddress(),
            PeerAuthenticator.pinned(List.of(serverIdentity.certificate())));
    long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (second.state() != ChannelState.OPEN && System.nanoTime() - giveUp < 0) {
      client.select(key -> {}, 10);
    }

    assertThat(second.state()).isEqualTo(ChannelState.OPEN);
    assertThat(wait.result.get(1, TimeUnit.MINUTES)).isEqualTo(1);
  }

  /**
   * The client's transport goes down without a CLOSE frame (as a crashed process's would), so only
   * rdma_cm's DISCONNECTED event tells the sleeping server.
   */
  @Test
  void aSleepingSelectorIsWokenByThePeersDisconnect() throws Exception {
    Channel serverSide = channel.serverSide();
    serverSide.key().addInterest(Interest.RECEIVE);
    Waiting wait =
        Waiting.start(
            () -> {
              while (serverSide.state() != ChannelState.CLOSED) {
                server.select(key -> key.channel().poll(new Received(), Integer.MAX_VALUE));
              }
              return 1;
            });
    assertThat(wait.shareOfACoreWhileWaiting()).isLessThan(MAX_IDLE_SHARE_OF_A_CORE);

    clientTransport.close();

    assertThat(wait.result.get(1, TimeUnit.MINUTES)).isEqualTo(1);
    assertThat(serverSide.closeReason()).contains("peer disconnected");
  }

  /** A select loop on its own thread, whose CPU time can be read while it waits. */
  private record Waiting(Thread thread, CompletableFuture<Integer> result) {

    static Waiting start(Callable<Integer> work) {
      BackgroundCall<Integer> call = BackgroundCall.start(work);
      return new Waiting(call.thread(), call.result());
    }

    /**
     * Lets the thread settle into its wait, then measures its CPU time per wall time while nothing
     * happens; it must still be waiting at the end (a select that returned early would spin).
     */
    double shareOfACoreWhileWaiting() throws InterruptedException {
      Thread.sleep(200);
      long cpuBefore = THREADS.getThreadCpuTime(thread.threadId());
      long start = System.nanoTime();
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(IDLE_MEASURE_NANOS));
      long elapsed = System.nanoTime() - start;
      long cpu = THREADS.getThreadCpuTime(thread.threadId()) - cpuBefore;
      assertThat(result).as("nothing to do: still waiting").isNotDone();
      return (double) cpu / elapsed;
    }
  }
}
