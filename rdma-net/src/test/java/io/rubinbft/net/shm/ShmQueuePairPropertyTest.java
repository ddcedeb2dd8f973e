package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.shm.ReferenceConnection.Pending;
import io.rubinbft.net.shm.ReferenceConnection.Receive;
import io.rubinbft.net.shm.ReferenceConnection.Send;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of posts and polls on a real shm connection, checked after every call against
 * {@link ReferenceConnection}: the same completions, in the same order, with the same bytes, and
 * the same refusals when a queue is full. Each run prints its seed; {@code -Dshm.seed=N} replays
 * one.
 */
class ShmQueuePairPropertyTest {

  private static final int AREA = 64;
  private static final int MAX_INLINE = 32;

  @TempDir Path root;

  @Test
  void randomPostAndPollSequencesMatchTheReferenceModel() throws VerbsException {
    runSeeds(20, 300);
  }

  @Test
  @Tag("long")
  void manyLongRandomSequencesMatchTheReferenceModel() throws VerbsException {
    runSeeds(300, 2000);
  }

  private void runSeeds(int seeds, int steps) throws VerbsException {
    String replay = System.getProperty("shm.seed");
    long base = replay != null ? Long.parseLong(replay) : System.nanoTime();
    for (int i = 0; i < (replay != null ? 1 : seeds); i++) {
      long seed = base + i;
      System.out.println("ShmQueuePairPropertyTest seed=" + seed);
      run(seed, steps);
    }
  }

  private void run(long seed, int steps) throws VerbsException {
    Random random = new Random(seed);
    int depth = 1 + random.nextInt(8);
    int retries = random.nextInt(8);
    ShmOptions options = ShmOptions.defaults(root).withReceiverNotReadyRetries(retries);
    try (ConnectedPair c = ConnectedPair.open(options, depth, MAX_INLINE)) {
      new Run(seed, random, c, new ReferenceConnection(depth, retries)).steps(steps);
    }
  }

  /** One seeded sequence against one connection and its model. */
  private record Run(long seed, Random random, ConnectedPair c, ReferenceConnection model) {

    void steps(int steps) throws VerbsException {
      long nextId = 0;
      for (int step = 0; step < steps; step++) {
        String at = "seed " + seed + ", step " + step;
        int count = 1 + random.nextInt(3);
        int postCount = Math.min(count, c.client.pair.sendRequests().capacity());
        int roll = random.nextInt(1000);
        if (roll < 3) {
          disconnect(random.nextBoolean());
        } else if (roll < 200) {
          postSends(at, nextId, postCount);
        } else if (roll < 550) {
          postReceives(at, nextId, postCount);
        } else if (roll < 700) {
          check(at, c.client.sendCompletions, model.pollClientSends(count), count);
        } else if (roll < 850) {
          check(at, c.server.receiveCompletions, model.pollServerReceives(count), count);
        } else {
          pollWithoutCompletions(at, count);
        }
        nextId += count;
      }
    }

    private void postSends(String at, long firstId, int count) throws VerbsException {
      QueuePair pair = c.client.pair;
      List<Send> sends = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long id = firstId + i;
        int length = random.nextInt(20) == 0 ? AREA : random.nextInt(AREA / 2 + 1);
        fill(c.client.bytes(), id, length);
        boolean inline = length <= MAX_INLINE && random.nextBoolean();
        boolean signaled = random.nextInt(3) > 0;
        pair.sendRequests().set(i, id, c.client.memory, id * AREA, length, signaled, inline);
        sends.add(new Send(id, length, signaled));
      }
      if (model.sendQueueRefuses(count)) {
        assertThatThrownBy(() -> pair.postSend(count)).as(at).hasMessageContaining("is full");
        return;
      }
      pair.postSend(count);
      model.postSends(sends);
    }

    private void postReceives(String at, long firstId, int count) throws VerbsException {
      QueuePair pair = c.server.pair;
      List<Receive> receives = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long id = firstId + i;
        int capacity = AREA / 2 + random.nextInt(AREA / 2 + 1);
        pair.receiveRequests().set(i, id, c.server.memory, id * AREA, capacity, true, false);
        receives.add(new Receive(id, capacity));
      }
      if (model.receiveQueueRefuses(count)) {
        assertThatThrownBy(() -> pair.postReceive(count)).as(at).hasMessageContaining("is full");
        return;
      }
      pair.postReceive(count);
      model.postReceives(receives);
    }

    /** A rare disconnect of either side: from then on everything is flushed. */
    private void disconnect(boolean client) throws VerbsException {
      if (client) {
        c.client.pair.disconnect();
        model.disconnectClient();
      } else {
        c.server.pair.disconnect();
        model.disconnectServer();
      }
    }

    /** Polls the queues that never complete anything here; they still drive the pairs. */
    private void pollWithoutCompletions(String at, int max) throws VerbsException {
      model.clientPass();
      check(at, c.client.receiveCompletions, List.of(), max);
      model.serverPass();
      check(at, c.server.sendCompletions, List.of(), max);
    }

    private void check(String at, CompletionQueue queue, List<Pending> expected, int max)
        throws VerbsException {
      List<RecordedCompletion> actual = new ArrayList<>();
      int count =
          queue.poll(
              (pair, id, opcode, status, length) ->
                  actual.add(new RecordedCompletion(id, opcode, status, length)),
              max);
      assertThat(actual)
          .as(at)
          .containsExactlyElementsOf(expected.stream().map(Pending::completion).toList());
      assertThat(count).as(at).isEqualTo(actual.size());
      for (Pending pending : expected) {
        RecordedCompletion completion = pending.completion();
        if (pending.sendId() >= 0 && completion.status() == CompletionStatus.SUCCESS) {
          byte[] want = new byte[completion.byteLength()];
          fill(MemorySegment.ofArray(want), pending.sendId(), want.length, 0);
          byte[] got =
              c.server
                  .bytes()
                  .asSlice(completion.workRequestId() * AREA, want.length)
                  .toArray(ValueLayout.JAVA_BYTE);
          assertThat(got)
              .as(at + ", bytes of receive " + completion.workRequestId())
              .isEqualTo(want);
        }
      }
    }
  }

  private static void fill(MemorySegment memory, long id, int length) {
    fill(memory, id, length, id * AREA);
  }

  private static void fill(MemorySegment memory, long id, int length, long offset) {
    for (int j = 0; j < length; j++) {
      memory.set(ValueLayout.JAVA_BYTE, offset + j, (byte) (id * 31 + j));
    }
  }
}
