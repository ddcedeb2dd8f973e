package io.rubinbft.net.shm;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.Identity;
import io.rubinbft.net.Interest;
import io.rubinbft.net.OpenChannel;
import io.rubinbft.net.Received;
import io.rubinbft.net.Selector;
import io.rubinbft.net.SendResult;
import io.rubinbft.net.TestIdentities;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orderer's network at light load: two selectors, each on its own thread waiting in {@code
 * select} with no timeout as the cluster network does, exchange a 1 KB message and its echo every 5
 * ms, so every message arrives after a quiet spell. Prints the round trip's percentiles and the CPU
 * both selector threads spent, for tcp and for shm with the longest parks the orderer and rdma-net
 * use (1 ms and 100 µs: with the doorbell the poller sleeps instead, so they barely matter).
 * Asserts nothing:
 *
 * <pre>
 * ./test.sh -pl rdma-net -Plong -Dtest=QuietSpellLatencyBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("long")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class QuietSpellLatencyBenchmark {

  private static final int ROUND_TRIPS = 400;
  private static final int WARM_UP = 100;
  private static final long GAP_MILLIS = 5;
  private static final int SIZE = 1024;

  @TempDir Path root;

  @Test
  void roundTripsAfterQuietSpells() throws Exception {
    System.out.println(
        "transport              rtt_p50_us  rtt_p90_us  rtt_p99_us  cpu_pct_of_a_core");
    measure("tcp", TcpTransport::open);
    for (long park : new long[] {1_000_000, 100_000}) {
      Path directory = Files.createDirectories(root.resolve("park-" + park));
      measure(
          "shm, park " + park / 1000 + " us",
          () ->
              VerbsTransport.open(
                  ShmVerbsDevice.open(ShmOptions.defaults(directory)), 4096, 256, park));
    }
  }

  @FunctionalInterface
  private interface TransportFactory {
    Transport open() throws IOException;
  }

  private static void measure(String name, TransportFactory transports) throws Exception {
    Identity serverIdentity = TestIdentities.create("replica-0");
    Identity clientIdentity = TestIdentities.create("replica-1");
    try (Selector server = Selector.open(transports.open(), config(serverIdentity));
        Selector client = Selector.open(transports.open(), config(clientIdentity))) {
      OpenChannel pair = connect(server, client, serverIdentity, clientIdentity);
      AtomicBoolean running = new AtomicBoolean(true);
      CompletableFuture<Long> serverCpu = new CompletableFuture<>();
      Thread.ofPlatform().daemon().start(() -> echo(server, pair.serverSide(), running, serverCpu));
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      roundTrips(client, pair.clientSide(), WARM_UP);
      long cpuBefore = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      long[] rtt = roundTrips(client, pair.clientSide(), ROUND_TRIPS);
      long clientCpu = threads.getCurrentThreadCpuTime() - cpuBefore;
      long elapsed = System.nanoTime() - start;
      running.set(false);
      server.wakeup();
      long cpu = clientCpu + serverCpu.get(1, TimeUnit.MINUTES);
      Arrays.sort(rtt);
      System.out.printf(
          Locale.ROOT,
          "%-22s %11.1f %11.1f %11.1f %18.2f%n",
          name,
          rtt[rtt.length / 2] / 1e3,
          rtt[rtt.length * 9 / 10] / 1e3,
          rtt[rtt.length * 99 / 100] / 1e3,
          100.0 * cpu / elapsed);
    }
  }

  private static ChannelConfig config(Identity identity) {
    return new ChannelConfig(identity, 8, 8, 16 * 1024, 1 << 20, 16);
  }

  private static OpenChannel connect(
      Selector server, Selector client, Identity serverIdentity, Identity clientIdentity)
      throws IOException {
    OpenChannel channel = OpenChannel.open(server, serverIdentity, client, clientIdentity);
    channel.clientSide().key().addInterest(Interest.RECEIVE);
    channel.serverSide().key().addInterest(Interest.RECEIVE);
    return channel;
  }

  /** The server's thread: echoes every message; reports its CPU time when told to stop. */
  private static void echo(
      Selector server, Channel channel, AtomicBoolean running, CompletableFuture<Long> cpu) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Received received = new Received();
    try {
      long cpuBefore = 0;
      int echoed = 0;
      while (running.get()) {
        server.select(key -> key.channel().poll(received, Integer.MAX_VALUE));
        for (; echoed < received.count(); echoed++) {
          byte[] message = received.messages.get(echoed);
          if (channel.offer(new UnsafeBuffer(message), 0, message.length) != SendResult.SENT) {
            throw new IllegalStateException("echo back-pressured");
          }
          if (echoed == WARM_UP - 1) {
            cpuBefore = threads.getCurrentThreadCpuTime();
          }
        }
        server.flush();
      }
      cpu.complete(threads.getCurrentThreadCpuTime() - cpuBefore);
    } catch (IOException | RuntimeException e) {
      cpu.completeExceptionally(e);
    }
  }

  private static long[] roundTrips(Selector client, Channel channel, int count)
      throws IOException, InterruptedException {
    Received received = new Received();
    UnsafeBuffer message = new UnsafeBuffer(new byte[SIZE]);
    long[] rtt = new long[count];
    for (int i = 0; i < count; i++) {
      Thread.sleep(GAP_MILLIS);
      long start = System.nanoTime();
      if (channel.offer(message, 0, SIZE) != SendResult.SENT) {
        throw new IllegalStateException("send back-pressured");
      }
      client.flush();
      while (received.count() <= i) {
        client.select(key -> key.channel().poll(received, Integer.MAX_VALUE));
      }
      rtt[i] = System.nanoTime() - start;
    }
    return rtt;
  }
}
