package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verbs-level echo between this JVM and a child process, in the shape of the RUBIN paper's Figures
 * 3 and 4: round-trip latency (one message in flight) and throughput (a window of messages in
 * flight) per message size. Prints numbers, asserts none:
 *
 * <pre>
 * ./test.sh -pl rdma-net -Plong -Dtest=ShmEchoBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("long")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ShmEchoBenchmark {

  private static final int[] SIZES = {1024, 16 * 1024, 100 * 1024};
  private static final int WARMUP = 2_000;
  private static final int ROUND_TRIPS = 10_000;
  private static final int WINDOW = 8;
  private static final int STREAMED = 20_000;

  @TempDir Path root;

  @Test
  void echoLatencyAndThroughput() throws Exception {
    int slot = SIZES[SIZES.length - 1];
    try (ShmVerbsDevice device = ShmVerbsDevice.open(ShmOptions.defaults(root));
        EchoChild child = EchoChild.start(root, 7200, slot)) {
      Endpoint endpoint =
          new Endpoint(
              device, ShmEchoPeer.DEPTH, ShmEchoPeer.DEPTH, 0, 2L * ShmEchoPeer.DEPTH * slot);
      child.connect(endpoint);
      System.out.println("size_bytes  rtt_p50_us  rtt_p99_us  throughput_msgs_per_s  MB_per_s");
      for (int size : SIZES) {
        long[] rtt = roundTrips(endpoint, size, slot);
        double seconds = stream(endpoint, size, slot);
        System.out.printf(
            "%10d  %10.1f  %10.1f  %21.0f  %8.1f%n",
            size,
            rtt[rtt.length / 2] / 1e3,
            rtt[rtt.length * 99 / 100] / 1e3,
            STREAMED / seconds,
            (double) STREAMED * size / seconds / 1e6);
      }
      endpoint.pair.disconnect();
    }
  }

  private static long[] roundTrips(Endpoint endpoint, int size, int slot) throws VerbsException {
    long[] nanos = new long[ROUND_TRIPS];
    for (int i = -WARMUP; i < ROUND_TRIPS; i++) {
      long start = System.nanoTime();
      exchange(endpoint, size, slot, 1);
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
    }
    Arrays.sort(nanos);
    return nanos;
  }

  private static double stream(Endpoint endpoint, int size, int slot) throws VerbsException {
    long start = System.nanoTime();
    for (int sent = 0; sent < STREAMED; sent += WINDOW) {
      exchange(endpoint, size, slot, WINDOW);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** Sends {@code count} messages of {@code size} bytes and waits for their echoes. */
  private static void exchange(Endpoint endpoint, int size, int slot, int count)
      throws VerbsException {
    QueuePair pair = endpoint.pair;
    for (int i = 0; i < count; i++) {
      long receiveOffset = (long) (ShmEchoPeer.DEPTH + i) * slot;
      pair.receiveRequests().set(i, i, endpoint.memory, receiveOffset, slot, true, false);
      pair.sendRequests().set(i, i, endpoint.memory, (long) i * slot, size, i == count - 1, false);
    }
    pair.postReceive(count);
    pair.postSend(count);
    int[] echoed = {0};
    while (echoed[0] < count) {
      endpoint.receiveCompletions.poll(
          (q, id, opcode, status, length) -> {
            assertThat(status).isEqualTo(CompletionStatus.SUCCESS);
            echoed[0]++;
          },
          count);
      endpoint.sendCompletions.poll((q, id, opcode, status, length) -> {}, count);
    }
  }
}
