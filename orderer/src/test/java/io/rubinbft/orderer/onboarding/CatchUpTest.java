package io.rubinbft.orderer.onboarding;

import static io.rubinbft.orderer.onboarding.FixtureSources.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.testing.ScriptedDeliver;
import io.rubinbft.orderer.testing.ScriptedDeliver.Lie;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catch-up's target on Fabric's chain (config blocks 6 and 7, four consenters, f = 1) for a
 * ledger holding blocks 0..5: only one orderer, the honest one, holds config block 7, as when the
 * correct orderers that executed an epoch's last decision are the ones it removed. The others are
 * behind (they claim config blocks 0 or 6), silent, or claim a height they do not serve. The
 * catch-up pulls to block 7 from the honest one, each block checked, and ends there; the (f+1)-th
 * highest claim would have stopped it at block 6.
 */
class CatchUpTest {

  private static final List<Block> CHAIN = FixturePulling.chain();

  @TempDir Path dir;
  @AutoClose private final FixtureSources servers = new FixtureSources();

  @Test
  void pullsToTheConfigBlockOnlyOneHonestOrdererHoldsWhileOthersClaimLess() throws Exception {
    ScriptedDeliver honest = servers.serving(CHAIN);
    ScriptedDeliver atGenesisConfig = servers.serving(CHAIN.subList(0, 6));
    ScriptedDeliver atOlderConfig = servers.serving(CHAIN.subList(0, 7));
    ScriptedDeliver closed = servers.serving(CHAIN);
    String silent = endpoint(closed);
    closed.close();

    try (BlockStore store = FixturePulling.store(dir)) {
      ChannelLedger ledger = ledgerWithFirstBlocks(store, 6);
      long config =
          catchUp(
              ledger,
              List.of(
                  endpoint(honest), endpoint(atGenesisConfig), endpoint(atOlderConfig), silent));

      assertThat(config).isEqualTo(FixturePulling.NEWEST_CONFIG_BLOCK);
      assertThat(ledger.height()).isEqualTo(FixturePulling.NEWEST_CONFIG_BLOCK + 1);
      assertFabricsBlocks(ledger);
      assertThat(honest.requests()).isPositive();
      assertThat(atGenesisConfig.requests()).isZero();
      assertThat(atOlderConfig.requests()).isZero();
    }
  }

  /**
   * A Byzantine orderer claims a height far beyond the chain and sends a forged config block 6;
   * another is behind. The liar, claiming the most, is asked once, distrusted, and the honest one
   * serves blocks 6 and 7.
   */
  @Test
  void aSourceLyingAboutMoreCostsOneTryAndTheHonestOneServesTheConfigBlock() throws Exception {
    ScriptedDeliver honest = servers.serving(CHAIN);
    ScriptedDeliver liar = servers.serving(CHAIN);
    liar.claim(1_000_000);
    liar.lie(Lie.FLIP_SIGNATURE, 6);
    ScriptedDeliver behind = servers.serving(CHAIN.subList(0, 6));

    try (BlockStore store = FixturePulling.store(dir)) {
      ChannelLedger ledger = ledgerWithFirstBlocks(store, 6);
      long config = catchUp(ledger, List.of(endpoint(liar), endpoint(behind), endpoint(honest)));

      assertThat(config).isEqualTo(FixturePulling.NEWEST_CONFIG_BLOCK);
      assertThat(ledger.height()).isEqualTo(FixturePulling.NEWEST_CONFIG_BLOCK + 1);
      assertFabricsBlocks(ledger);
      assertThat(liar.requests()).isEqualTo(1);
      assertThat(behind.requests()).isZero();
    }
  }

  /** Only liars claim more: nothing is pulled beyond what the ledger holds. */
  @Test
  void whenOnlyALiarClaimsMoreTheLedgerStaysWhereItIs() throws Exception {
    ScriptedDeliver liar = servers.serving(CHAIN);
    liar.claim(1_000_000);
    liar.lie(Lie.WRONG_PREVIOUS_HASH, 6);
    ScriptedDeliver behind = servers.serving(CHAIN.subList(0, 6));

    try (BlockStore store = FixturePulling.store(dir)) {
      ChannelLedger ledger = ledgerWithFirstBlocks(store, 6);
      long config = catchUp(ledger, List.of(endpoint(liar), endpoint(behind)));

      assertThat(config).isZero();
      assertThat(ledger.height()).isEqualTo(6);
      assertThat(liar.requests()).isEqualTo(1);
    }
  }

  /**
   * The probe before stopping a replica: a newer config block claimed by one orderer is seen; with
   * the ledger holding the newest config block every orderer claims, it is not. Neither pulls.
   */
  @Test
  void theProbeSeesANewerConfigBlockOneOrdererClaimsAndPullsNothing() throws Exception {
    ScriptedDeliver honest = servers.serving(CHAIN);
    ScriptedDeliver atOlderConfig = servers.serving(CHAIN.subList(0, 7));

    try (BlockStore store = FixturePulling.store(dir)) {
      ChannelLedger ledger = ledgerWithFirstBlocks(store, 7);
      assertThat(newerConfigClaimed(ledger, List.of(endpoint(honest), endpoint(atOlderConfig))))
          .isTrue();
      assertThat(newerConfigClaimed(ledger, List.of(endpoint(atOlderConfig)))).isFalse();

      assertThat(ledger.height()).isEqualTo(7);
      assertThat(honest.probes()).isPositive();
      assertThat(honest.requests()).isZero();
      assertThat(atOlderConfig.requests()).isZero();
    }
  }

  private static boolean newerConfigClaimed(ChannelLedger ledger, List<String> endpoints)
      throws Exception {
    try (CatchUp catchUp = catchUpFrom(ledger, endpoints)) {
      return catchUp.newerConfigClaimed();
    }
  }

  /**
   * Catches {@code ledger} up from the orderers at {@code endpoints}; returns the newest config
   * block it holds.
   */
  private static long catchUp(ChannelLedger ledger, List<String> endpoints) throws Exception {
    try (CatchUp catchUp = catchUpFrom(ledger, endpoints)) {
      return catchUp.toNewestConfigBlock();
    }
  }

  private static CatchUp catchUpFrom(ChannelLedger ledger, List<String> endpoints)
      throws Exception {
    VerifyingAppender appender =
        new VerifyingAppender(ledger, FixturePulling.CRYPTO, Clock.systemUTC());
    BlockPuller puller =
        new BlockPuller(
            FixturePulling.CHANNEL,
            () -> FixturePulling.configWithEndpoints(endpoints),
            FixturePulling.context(FixturePulling.quickLimits()));
    return new CatchUp(ledger, appender, puller);
  }

  private static ChannelLedger ledgerWithFirstBlocks(BlockStore store, int count) throws Exception {
    ChannelLedger ledger = store.createChannel(FixturePulling.CHANNEL);
    VerifyingAppender appender =
        new VerifyingAppender(ledger, FixturePulling.CRYPTO, Clock.systemUTC());
    for (Block block : CHAIN.subList(0, count)) {
      assertThat(appender.accept(block)).isEqualTo(Optional.empty());
    }
    return ledger;
  }

  private static void assertFabricsBlocks(ChannelLedger ledger) {
    for (int n = 0; n < ledger.height(); n++) {
      assertThat(ledger.block(n).orElseThrow().bytes()).isEqualTo(CHAIN.get(n).toByteString());
    }
  }
}
