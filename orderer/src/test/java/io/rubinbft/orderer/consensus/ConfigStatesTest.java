package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.crypto.Fixtures;
import java.time.Clock;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;

/**
 * The config in force after each block, on Fabric's fixture chain (config blocks 0, 6 and 7): from
 * the ledger, from blocks checked in flight, and for in-flight blocks a replica never saw.
 */
class ConfigStatesTest {

  private static ConfigStates committedUpTo(int height) throws InvalidConfigException {
    return new ConfigStates(
        ConfigState.factory(FabricTestCluster.PROVIDER, Clock.systemUTC(), 64, 64),
        n -> n < height ? Optional.of(Fixtures.block((int) n)) : Optional.empty(),
        Fixtures.block(height - 1));
  }

  private static long sequenceAfter(ConfigStates states, int block) {
    return states.after(Fixtures.block(block)).orElseThrow().config().sequence();
  }

  @Test
  void ledgerBlocksNameTheConfigInForceAfterThem() throws Exception {
    ConfigStates states = committedUpTo(10);

    assertThat(states.committed().config().blockNumber()).isEqualTo(7);
    assertThat(sequenceAfter(states, 0)).isZero();
    assertThat(sequenceAfter(states, 5)).isZero();
    assertThat(sequenceAfter(states, 6)).isEqualTo(1);
    assertThat(sequenceAfter(states, 9)).isEqualTo(2);
  }

  @Test
  void aCheckedConfigBlockInFlightAppliesFromTheNextBlockAndOnCommit() throws Exception {
    ConfigStates states = committedUpTo(6);
    ConfigState before = states.after(Fixtures.block(5)).orElseThrow();

    ConfigState after = states.record(Fixtures.block(6), before);

    assertThat(after.config().sequence()).isEqualTo(1);
    assertThat(states.after(Fixtures.block(6))).containsSame(after);
    assertThat(states.committed().config().sequence()).isZero();
    assertThat(states.record(Fixtures.block(7), after).config().sequence()).isEqualTo(2);
  }

  @Test
  void unseenInFlightBlocksAreKnownOnlyThroughCommittedConfigBlocks() throws Exception {
    ConfigStates states = committedUpTo(6);

    assertThat(sequenceAfter(states, 5)).isZero();
    assertThat(states.after(Fixtures.block(6))).isEmpty();
    assertThat(states.after(Fixtures.block(8))).isEmpty();
  }

  @Test
  void configBlocksCommittedWithoutACheckTakeEffectAtCommit() throws Exception {
    // A replica that caught up by state transfer: blocks 6 to 9 reach its ledger without any
    // proposal check (no record()), and the committed config must still follow them.
    int[] height = {6};
    ConfigStates states =
        new ConfigStates(
            ConfigState.factory(FabricTestCluster.PROVIDER, Clock.systemUTC(), 64, 64),
            n -> n < height[0] ? Optional.of(Fixtures.block((int) n)) : Optional.empty(),
            Fixtures.block(5));
    assertThat(states.committed().config().blockNumber()).isZero();

    height[0] = 7;
    states.heightReached(7);
    assertThat(states.committed().config().blockNumber()).isEqualTo(6);

    height[0] = 10;
    states.heightReached(10);
    assertThat(states.committed().config().blockNumber()).isEqualTo(7);
    assertThat(states.committed().config().sequence()).isEqualTo(2);
  }

  @Test
  void aCallerThatSeesAConfigBlockInTheLedgerGetsItsConfigBeforeTheListenerRuns() throws Exception {
    // The ledger wakes Deliver streams before it calls its height listeners: a stream that sees
    // block 6 (a config block) must be judged by block 6's config, not by the genesis config.
    int[] height = {6};
    ConfigStates states =
        new ConfigStates(
            ConfigState.factory(FabricTestCluster.PROVIDER, Clock.systemUTC(), 64, 64),
            n -> n < height[0] ? Optional.of(Fixtures.block((int) n)) : Optional.empty(),
            Fixtures.block(5));
    ConfigState genesis = states.committedAt(6);
    height[0] = 8;

    ConfigState seen = states.committedAt(8);

    assertThat(genesis.config().blockNumber()).isZero();
    assertThat(seen.config().blockNumber()).isEqualTo(7);
    assertThat(states.committed()).isSameAs(seen);
    assertThat(states.committedAt(7)).as("a caller that saw less").isSameAs(seen);
  }

  @Test
  void aBlockThatDiffersFromTheLedgersAtItsHeightIsUnknown() throws Exception {
    ConfigStates states = committedUpTo(10);
    Block forged =
        Fixtures.block(5).toBuilder()
            .setHeader(Fixtures.block(5).getHeader().toBuilder().setNumber(4))
            .build();

    assertThat(states.after(forged)).isEmpty();
  }
}
