package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sender thread and a receiver thread, each driving its own device, stream messages through one
 * pair: the cross-thread (and so cross-process) publication of receives and deliveries must never
 * show a torn or stale slot. The receiver checks every message's sequence number and bytes.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ShmConcurrentStreamTest {

  private static final int DEPTH = 16;
  private static final int SLOT = 256;
  private static final int MESSAGES = 20_000;

  @TempDir Path root;

  @Test
  void aStreamBetweenTwoThreadsArrivesWholeAndInOrder() throws Exception {
    // The sender may outrun the receiver: it waits for receives instead of failing with RNR.
    ShmOptions options = ShmOptions.defaults(root).withReceiverNotReadyRetries(Integer.MAX_VALUE);
    try (ConnectedPair c = ConnectedPair.open(options, DEPTH, 0)) {
      CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> receive(c.server));
      send(c.client, received);
      assertThat(received.get(2, TimeUnit.MINUTES)).isEqualTo(MESSAGES);
    }
  }

  /**
   * Sends every message, then keeps polling until all completed: a send is delivered by its own
   * process's passes, so a sender that stopped polling would strand its last messages.
   */
  private static void send(Endpoint client, CompletableFuture<Long> receiver)
      throws VerbsException {
    QueuePair pair = client.pair;
    long[] completed = {0};
    for (long sequence = 0; sequence <= MESSAGES; sequence++) {
      while (sequence - completed[0] >= (sequence == MESSAGES ? 1 : DEPTH)) {
        if (receiver.isCompletedExceptionally()) {
          receiver.join();
        }
        client.sendCompletions.poll(
            (q, id, opcode, status, length) -> {
              assertThat(status).isEqualTo(CompletionStatus.SUCCESS);
              completed[0]++;
            },
            DEPTH);
        Thread.yield();
      }
      if (sequence < MESSAGES) {
        long offset = (sequence % DEPTH) * SLOT;
        int length = write(client.bytes(), offset, sequence);
        pair.sendRequests().set(0, sequence, client.memory, offset, length, true, false);
        pair.postSend(1);
      }
    }
  }

  private static long receive(Endpoint server) {
    long[] next = {0};
    try {
      for (int slot = 0; slot < DEPTH; slot++) {
        server.postReceive(slot, (long) slot * SLOT, SLOT);
      }
      while (next[0] < MESSAGES) {
        int polled =
            server.receiveCompletions.poll(
                (q, slot, opcode, status, length) -> {
                  assertThat(status).isEqualTo(CompletionStatus.SUCCESS);
                  check(server.bytes(), slot * SLOT, length, next[0]++);
                  repost(server, slot);
                },
                DEPTH);
        if (polled == 0) {
          Thread.yield();
        }
      }
      return next[0];
    } catch (VerbsException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void repost(Endpoint server, long slot) {
    try {
      server.postReceive(slot, slot * SLOT, SLOT);
    } catch (VerbsException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes message {@code sequence}: the number, then a pattern; returns its length. */
  private static int write(MemorySegment memory, long offset, long sequence) {
    int length = 8 + (int) (sequence % (SLOT - 8));
    memory.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, sequence);
    for (int i = 8; i < length; i++) {
      memory.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (sequence + i));
    }
    return length;
  }

  private static void check(MemorySegment memory, long offset, int length, long sequence) {
    assertThat(memory.get(ValueLayout.JAVA_LONG_UNALIGNED, offset)).isEqualTo(sequence);
    assertThat(length).isEqualTo(8 + (int) (sequence % (SLOT - 8)));
    for (int i = 8; i < length; i++) {
      if (memory.get(ValueLayout.JAVA_BYTE, offset + i) != (byte) (sequence + i)) {
        throw new AssertionError("message " + sequence + " differs at byte " + i);
      }
    }
  }
}
