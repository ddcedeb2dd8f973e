package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.orderer.channel.PbftSettings;
import io.rubinbft.orderer.memory.MessageLimits;
import io.rubinbft.orderer.memory.Pipeline;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every channel's largest consensus message fits the transport. */
class PipelineTest {

  private static final long MB = 1L << 20;

  /**
   * Fabric's default BatchSize (AbsoluteMaxBytes 10 MB, so single envelopes of up to 10 MB) with 4,
   * 7 and 10 consenters: view changes name proposals by digest, so a 10 MB proposal fits whatever
   * the consenter count (before, the cap was about 125, 157 and 225 KB), and the window counts the
   * bytes in flight: 64 sequences with a checkpoint at least every 8, within 15 MiB of proposals
   * (before: a window of 2 at the cap and a checkpoint at every block), one decision retained.
   */
  @Test
  void fabricsTenMegabyteBatchesAreAcceptedWithFourSevenAndTenConsenters() {
    for (int consenters : new int[] {4, 7, 10}) {
      Pipeline pipeline = ChannelReplicas.pipeline(consenters, settings(500, 10 * MB, 10 * MB));

      assertThat(largest(consenters, 500, pipeline))
          .as("%d consenters", consenters)
          .isLessThanOrEqualTo(MessageLimits.CONSENSUS_MAX_MESSAGE_BYTES);
      assertThat(pipeline.batchMaxBytes()).as("%d consenters", consenters).isEqualTo(10 * MB);
      assertThat(pipeline.requestMaxBytes()).as("%d consenters", consenters).isEqualTo(10 * MB);
      assertThat(pipeline.window()).as("%d consenters", consenters).isEqualTo(64);
      assertThat(pipeline.checkpointInterval()).isEqualTo(8);
      assertThat(pipeline.windowBytes()).isEqualTo(15 * MB);
      assertThat(pipeline.retainedDecisions()).isEqualTo(1);
    }
  }

  /** Small batches keep the deepest window and their limits. */
  @Test
  void smallBatchesKeepTheDeepestWindowAndTheirLimits() {
    Pipeline pipeline = ChannelReplicas.pipeline(4, settings(10, 16 << 10, 4 << 10));

    assertThat(pipeline.window()).isEqualTo(64);
    assertThat(pipeline.checkpointInterval()).isEqualTo(8);
    assertThat(pipeline.batchMaxBytes()).isEqualTo(16 << 10);
    assertThat(pipeline.requestMaxBytes()).isEqualTo(4 << 10);
  }

  /** Beyond what one message carries, proposals are capped where one (and an answer) fits. */
  @Test
  void proposalsLargerThanTheTransportAreCappedWhereOneFits() {
    Pipeline pipeline = ChannelReplicas.pipeline(4, settings(10, 64 * MB, 64 * MB));

    assertThat(largest(4, 10, pipeline))
        .isLessThanOrEqualTo(MessageLimits.CONSENSUS_MAX_MESSAGE_BYTES);
    assertThat(pipeline.batchMaxBytes()).isGreaterThan(10 * MB).isLessThan(16 * MB);
    assertThat(pipeline.windowBytes())
        .isEqualTo(pipeline.batchMaxBytes() + pipeline.batchMaxBytes() / 2);
  }

  /** Any consenter count, block count and byte limits: the largest message fits, or none can. */
  @Test
  void theLargestMessageOfEveryPipelineFitsTheTransport() {
    long seed = Long.getLong("pipeline.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int i = 0; i < 300; i++) {
      int replicas = 1 + random.nextInt(16);
      int count = 1 + random.nextInt(1_000);
      long batchBytes = 1 + (long) (random.nextDouble() * 100 * MB);
      long requestBytes = 1 + (long) (random.nextDouble() * batchBytes);
      String replay =
          "seed %d (replay: mvn -pl orderer test -Dtest=PipelineTest -Dpipeline.seed=%d)"
              .formatted(seed, seed);

      Pipeline pipeline =
          ChannelReplicas.pipeline(replicas, settings(count, batchBytes, requestBytes));

      assertThat(largest(replicas, count, pipeline))
          .as(replay)
          .isLessThanOrEqualTo(MessageLimits.CONSENSUS_MAX_MESSAGE_BYTES);
      assertThat(pipeline.window() % pipeline.checkpointInterval()).as(replay).isZero();
      assertThat(pipeline.window())
          .as(replay)
          .isGreaterThanOrEqualTo(2 * pipeline.checkpointInterval());
      assertThat(pipeline.batchMaxBytes()).as(replay).isLessThanOrEqualTo(batchBytes);
      assertThat(pipeline.windowBytes())
          .as(replay + ": a primary always reaches the next checkpoint")
          .isGreaterThan(pipeline.batchMaxBytes());
      assertThat(
              2 * pipeline.windowBytes() + pipeline.retainedDecisions() * pipeline.batchMaxBytes())
          .as(replay + ": what a backup holds stays within three windows' bytes")
          .isLessThanOrEqualTo(3 * pipeline.windowBytes());
      assertThat(pipeline.retainedDecisions()).as(replay).isBetween(1, pipeline.window());
      if (batchBytes <= 10 * MB) {
        assertThat(pipeline.batchMaxBytes()).as(replay).isEqualTo(batchBytes);
      }
      assertThat(pipeline.requestMaxBytes())
          .as(replay)
          .isLessThanOrEqualTo((int) Math.min(requestBytes, pipeline.batchMaxBytes()));
    }
  }

  @Test
  void aConsenterSetTooLargeForAnyProposalIsRefused() {
    assertThatThrownBy(
            () -> Pipeline.fitting(100_000, 10, 10 * MB, 1 << 20, 64 << 10, 1 << 10, 16 * MB, MB))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no proposal fits");
  }

  private static long largest(int replicas, int count, Pipeline pipeline) {
    return new WireLimits(
            replicas,
            count,
            pipeline.requestMaxBytes(),
            pipeline.batchMaxBytes(),
            MessageLimits.MAX_PAYLOAD_BYTES,
            MessageLimits.MAX_SIGNATURE_BYTES,
            pipeline.window(),
            Integer.MAX_VALUE)
        .largestMessageBytes();
  }

  private static PbftSettings settings(int count, long batchBytes, long requestBytes) {
    Duration second = Duration.ofSeconds(1);
    return new PbftSettings(
        count,
        batchBytes,
        Duration.ofMillis(200),
        requestBytes,
        100_000,
        second,
        second,
        second,
        second,
        second);
  }
}
