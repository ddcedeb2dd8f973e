package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.orderer.channel.PbftSettings;
import io.rubinbft.orderer.memory.MessageLimits;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every channel's largest consensus message fits the transport. */
class PipelineTest {

  private static final long MB = 1L << 20;

  /**
   * Fabric's default BatchSize (AbsoluteMaxBytes 10 MB, so single envelopes of up to 10 MB) with 4
   * consenters: a new view carrying 4 view changes of a full window of such proposals would be
   * hundreds of MB, so the window shrinks and proposals are capped where the smallest window fits.
   */
  @Test
  void fabricsTenMegabyteBatchesGetASmallWindowAndAProposalCapThatFits() {
    Pipeline pipeline = ChannelReplicas.pipeline(4, settings(100, 10 * MB, 10 * MB));

    assertThat(largest(4, 100, pipeline))
        .isLessThanOrEqualTo(MessageLimits.CONSENSUS_MAX_MESSAGE_BYTES);
    assertThat(pipeline.window()).isEqualTo(16);
    assertThat(pipeline.checkpointInterval()).isEqualTo(8);
    assertThat(pipeline.batchMaxBytes())
        .isGreaterThanOrEqualTo(MessageLimits.PREFERRED_MIN_PROPOSAL_BYTES)
        .isLessThan(10 * MB);
    assertThat(pipeline.requestMaxBytes()).isEqualTo((int) pipeline.batchMaxBytes());
  }

  /**
   * Small batches keep a deep window and their limits; not 64, since every proposal may also carry
   * a 64 KiB payload (the block header and metadata) that a new view must hold.
   */
  @Test
  void smallBatchesKeepADeepWindowAndTheirLimits() {
    Pipeline pipeline = ChannelReplicas.pipeline(4, settings(10, 16 << 10, 4 << 10));

    assertThat(pipeline.window()).isEqualTo(32);
    assertThat(pipeline.checkpointInterval()).isEqualTo(8);
    assertThat(pipeline.batchMaxBytes()).isEqualTo(16 << 10);
    assertThat(pipeline.requestMaxBytes()).isEqualTo(4 << 10);
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
            ChannelReplicas.MAX_PAYLOAD_BYTES,
            ChannelReplicas.MAX_SIGNATURE_BYTES,
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
