package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.channel.BatchLimits;
import io.rubinbft.orderer.channel.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BatchCutterTest {

  private static final int RUNS = 20_000;

  /** Property: the cutter agrees with a brute-force reference on random pools (seed printed). */
  @Test
  void agreesWithTheNaiveReference() {
    long seed = new Random().nextLong();
    System.out.println("BatchCutterTest seed " + seed);
    Random random = new Random(seed);
    for (int run = 0; run < RUNS; run++) {
      BatchLimits limits = randomLimits(random);
      List<PendingRequest> pending = randomPending(random, limits);
      boolean interval = random.nextBoolean();
      Optional<Batch> batch = new BatchCutter(limits).next(pending, interval);
      assertThat(batch)
          .as(
              "seed %d run %d limits %s pending %s interval %s",
              seed, run, limits, sizes(pending), interval)
          .isEqualTo(reference(pending, limits, interval));
      batch.ifPresent(b -> checkInvariants(b, pending, limits, seed));
    }
  }

  @Test
  void refusesAHeadRequestAboveTheAbsoluteLimit() {
    BatchLimits limits = new BatchLimits(10, 100, 50);
    List<PendingRequest> pending = List.of(request(101, false));
    assertThatThrownBy(() -> new BatchCutter(limits).next(pending, true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("pending request of 101 bytes exceeds AbsoluteMaxBytes (100)");
  }

  @Test
  void cutsTheFixturesBatchesAsFabricDid() {
    // ordbench sent 25 envelopes with MaxMessageCount 20: Fabric made block 8 (20) and 9 (5).
    List<PendingRequest> pending = new ArrayList<>();
    for (int n : new int[] {8, 9}) {
      Fixtures.block(n)
          .getData()
          .getDataList()
          .forEach(e -> pending.add(new PendingRequest(e, false)));
    }
    BatchCutter cutter = new BatchCutter(new BatchLimits(20, 10_485_760, 2_097_152));
    Batch first = cutter.next(pending, false).orElseThrow();
    assertThat(first.envelopes()).isEqualTo(Fixtures.block(8).getData().getDataList());
    List<PendingRequest> rest = pending.subList(first.size(), pending.size());
    assertThat(cutter.next(rest, false)).as("5 wait for the batch interval").isEmpty();
    assertThat(cutter.next(rest, true).orElseThrow().envelopes())
        .isEqualTo(Fixtures.block(9).getData().getDataList());
  }

  @Test
  void aConfigEnvelopeGoesAlone() {
    BatchCutter cutter = new BatchCutter(new BatchLimits(10, 1000, 1000));
    List<PendingRequest> pending =
        List.of(request(10, false), request(10, false), request(10, true), request(10, false));
    assertThat(cutter.next(pending, false).orElseThrow().size()).isEqualTo(2);
    Batch config = cutter.next(pending.subList(2, 4), false).orElseThrow();
    assertThat(config.config()).isTrue();
    assertThat(config.size()).isEqualTo(1);
  }

  private static Optional<Batch> reference(
      List<PendingRequest> pending, BatchLimits limits, boolean interval) {
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    if (pending.getFirst().config()) {
      return Optional.of(new Batch(List.of(pending.getFirst().envelope()), true));
    }
    int best = 0;
    for (int k = 1; k <= pending.size(); k++) {
      List<PendingRequest> prefix = pending.subList(0, k);
      long bytes = prefix.stream().mapToLong(PendingRequest::size).sum();
      boolean fits =
          k <= limits.maxMessageCount()
              && bytes <= limits.absoluteMaxBytes()
              && prefix.stream().noneMatch(PendingRequest::config);
      if (!fits) {
        break;
      }
      best = k;
    }
    List<PendingRequest> batch = pending.subList(0, best);
    long bytes = batch.stream().mapToLong(PendingRequest::size).sum();
    // Full: something is left that cannot join, or no request of at least 1 byte could join.
    boolean full =
        best < pending.size()
            || best == limits.maxMessageCount()
            || bytes == limits.absoluteMaxBytes();
    if (!full && !interval) {
      return Optional.empty();
    }
    return Optional.of(new Batch(batch.stream().map(PendingRequest::envelope).toList(), false));
  }

  private static void checkInvariants(
      Batch batch, List<PendingRequest> pending, BatchLimits limits, long seed) {
    assertThat(batch.size()).as("seed %d", seed).isBetween(1, limits.maxMessageCount());
    assertThat(batch.envelopes().stream().mapToLong(ByteString::size).sum())
        .isLessThanOrEqualTo(limits.absoluteMaxBytes());
    for (int i = 0; i < batch.size(); i++) {
      assertThat(batch.envelopes().get(i)).isSameAs(pending.get(i).envelope());
    }
    if (batch.config()) {
      assertThat(batch.size()).isEqualTo(1);
    }
  }

  private static BatchLimits randomLimits(Random random) {
    long absolute = random.nextLong(1, 5_000);
    return new BatchLimits(random.nextInt(1, 20), absolute, random.nextLong(1, absolute + 1));
  }

  private static List<PendingRequest> randomPending(Random random, BatchLimits limits) {
    List<PendingRequest> pending = new ArrayList<>();
    int count = random.nextInt(0, 40);
    long largest =
        random.nextBoolean()
            ? limits.absoluteMaxBytes()
            : Math.max(1, limits.absoluteMaxBytes() / 8);
    for (int i = 0; i < count; i++) {
      pending.add(request((int) random.nextLong(1, largest + 1), random.nextInt(10) == 0));
    }
    return pending;
  }

  private static PendingRequest request(int size, boolean config) {
    return new PendingRequest(ByteString.copyFrom(new byte[size]), config);
  }

  private static List<String> sizes(List<PendingRequest> pending) {
    return pending.stream().map(p -> p.size() + (p.config() ? "c" : "")).toList();
  }
}
