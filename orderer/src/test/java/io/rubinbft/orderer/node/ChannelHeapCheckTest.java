package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.Fixtures;
import io.rubinbft.orderer.channel.PbftSettings;
import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import org.junit.jupiter.api.Test;

/**
 * A node serving more than its heap holds at the channels' worst says so with the numbers; the
 * channel of Fabric's test network (10 MB AbsoluteMaxBytes, 4 consenters) is the default plan.
 */
class ChannelHeapCheckTest {

  private static final MemoryBudgets BUDGETS = MemoryBudgets.standard();
  private static final long PLAN_HEAP = HeapSize.need(HeapSize.Plan.DEFAULT, BUDGETS).heapBytes();

  @Test
  void oneChannelOfTheDefaultPlanFitsItsHeapAndTwoDoNot() throws Exception {
    ChannelConfig channel = ConfigBlockReader.read(Fixtures.block(0));
    assertThat(channel.pbft().batchMaxBytes()).isEqualTo(10L << 20);
    ChannelHeapCheck check = new ChannelHeapCheck(BUDGETS, PLAN_HEAP);

    assertThat(check.served(channel)).isEmpty();
    assertThat(check.served(channel)).as("the same channel again").isEmpty();
    ChannelConfig other = renamed(channel, "other");
    assertThat(check.served(other))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .startsWith(
                        "the 2 channels this node serves ("
                            + channel.channelId()
                            + ", other) need a heap of ")
                    .contains("but it has " + (PLAN_HEAP >> 20) + " MiB"));

    check.removed("other");
    assertThat(check.served(channel)).isEmpty();
  }

  /**
   * A join is checked with the channel added but counts nothing: refused beyond the heap, naming
   * the channel and the numbers, and a refused channel leaves the others' sum as it was.
   */
  @Test
  void aJoinBeyondTheHeapIsRefusedAndCountsNothing() throws Exception {
    ChannelConfig channel = ConfigBlockReader.read(Fixtures.block(0));
    ChannelHeapCheck check = new ChannelHeapCheck(BUDGETS, PLAN_HEAP);

    assertThat(check.refusal(channel)).isEmpty();
    assertThat(check.served(channel)).isEmpty();
    assertThat(check.refusal(renamed(channel, "other")))
        .hasValueSatisfying(
            refusal ->
                assertThat(refusal)
                    .startsWith("cannot join channel 'other': with it the 2 channels of this node")
                    .contains("but it has " + (PLAN_HEAP >> 20) + " MiB"));
    assertThat(check.served(channel)).as("the refused channel was not counted").isEmpty();
  }

  /**
   * A config update that raises a channel's AbsoluteMaxBytes beyond what the heap holds is applied
   * (ordered config is never refused by one node) with a warning, and the shortfall it leaves is
   * what {@code orderer_channels_heap_shortfall_bytes} serves; back within the heap it is 0.
   */
  @Test
  void aConfigUpdateBeyondTheHeapLeavesAShortfallUntilItFitsAgain() throws Exception {
    ChannelConfig channel = ConfigBlockReader.read(Fixtures.block(0));
    ChannelHeapCheck check = new ChannelHeapCheck(BUDGETS, PLAN_HEAP);
    assertThat(check.served(channel)).isEmpty();
    assertThat(check.shortfallBytes()).isZero();

    ChannelConfig larger = withBlockBytes(channel, 14L << 20);
    assertThat(check.served(larger))
        .hasValueSatisfying(warning -> assertThat(warning).contains("need a heap of"));
    int consenters = channel.consenters().size();
    long needed =
        HeapSize.heapFor(
            HeapSize.nodeBytes(BUDGETS, consenters)
                + HeapSize.channelBytes(
                    BUDGETS, consenters, channel.pbft().batchMaxCount(), 14L << 20, 14L << 20));
    assertThat(needed).isGreaterThan(PLAN_HEAP);
    assertThat(check.shortfallBytes()).isEqualTo(needed - PLAN_HEAP);

    assertThat(check.served(channel)).isEmpty();
    assertThat(check.shortfallBytes()).isZero();
  }

  private static ChannelConfig withBlockBytes(ChannelConfig c, long bytes) {
    PbftSettings p = c.pbft();
    return new ChannelConfig(
        c.channelId(),
        c.blockNumber(),
        c.sequence(),
        c.config(),
        c.capabilities(),
        c.consensusState(),
        c.consenters(),
        c.smartBftOptions(),
        new PbftSettings(
            p.batchMaxCount(),
            bytes,
            p.batchMaxInterval(),
            bytes,
            p.requestPoolSize(),
            p.requestForwardTimeout(),
            p.requestTimeout(),
            p.requestAutoRemoveTimeout(),
            p.viewChangeTimeout(),
            p.viewChangeResendInterval()),
        c.batchLimits(),
        c.batchTimeout(),
        c.ordererEndpoints(),
        c.blockValidationPolicy());
  }

  private static ChannelConfig renamed(ChannelConfig c, String name) {
    return new ChannelConfig(
        name,
        c.blockNumber(),
        c.sequence(),
        c.config(),
        c.capabilities(),
        c.consensusState(),
        c.consenters(),
        c.smartBftOptions(),
        c.pbft(),
        c.batchLimits(),
        c.batchTimeout(),
        c.ordererEndpoints(),
        c.blockValidationPolicy());
  }
}
