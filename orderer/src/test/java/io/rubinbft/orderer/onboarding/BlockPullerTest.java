package io.rubinbft.orderer.onboarding;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.consensus.ConfigState;
import io.rubinbft.orderer.testing.ScriptedDeliver;
import io.rubinbft.orderer.testing.ScriptedDeliver.Lie;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pulling Fabric's own chain over TLS from orderers of which all but one lie. Sources that claim
 * the same height are asked in turn, in the order of their endpoints, so the liars are met first,
 * each from the block the previous one failed at: a flipped signature byte at block 3, a wrong
 * previous hash at 5, an answer ending early at 7, silence at 8. The honest one serves the rest;
 * the ledger ends up holding Fabric's chain byte for byte. Sources that claim a height they do not
 * serve cost one try each, and a source that is behind is not asked while another is ahead.
 */
class BlockPullerTest {

  private static final List<Block> CHAIN = FixturePulling.chain();

  @TempDir Path dir;
  @AutoClose private final FixtureSources servers = new FixtureSources();

  @Test
  void everyLiarIsLeftForTheNextSourceAndTheChainIsFabrics() throws Exception {
    List<Lie> lies = List.of(Lie.FLIP_SIGNATURE, Lie.WRONG_PREVIOUS_HASH, Lie.TRUNCATE, Lie.HANG);
    List<Long> at = List.of(3L, 5L, 7L, 8L);
    List<ScriptedDeliver> byEndpoint = startSources(lies, at);
    pullsFabricsWholeChain(configNaming(byEndpoint));

    for (ScriptedDeliver server : byEndpoint) {
      assertThat(server.requests()).as("requests to %s", server.address()).isEqualTo(1);
    }
  }

  /**
   * Two sources claim a height far beyond the chain: one then sends nothing, the other block 0 and
   * a forged block 1. Each is asked for blocks once and then distrusted; a source holding only
   * blocks 0..4 is never asked while the honest one (height 10) is ahead.
   */
  @Test
  void sourcesClaimingAHeightTheyDoNotServeCostOneTryEach() throws Exception {
    List<ScriptedDeliver> byEndpoint =
        startSources(List.of(Lie.HANG, Lie.FLIP_SIGNATURE), List.of(0L, 1L));
    byEndpoint.get(0).claim(1_000_000);
    byEndpoint.get(1).claim(1_000_000);
    ScriptedDeliver behind = servers.serving(CHAIN.subList(0, 5));
    List<ScriptedDeliver> all = new ArrayList<>(byEndpoint);
    all.add(behind);
    PullStats stats = pullsFabricsWholeChain(configNaming(all));

    assertThat(byEndpoint.get(0).requests()).isEqualTo(1);
    assertThat(byEndpoint.get(1).requests()).isEqualTo(1);
    assertThat(byEndpoint.get(2).requests()).isPositive();
    assertThat(behind.requests()).isZero();
    assertThat(behind.probes()).isPositive();
    assertThat(stats.blocksPulled()).isEqualTo(FixturePulling.HEIGHT);
    assertThat(stats.refusals())
        .containsEntry(Refusal.Check.SIGNATURES, 1L)
        .containsEntry(Refusal.Check.CHAIN, 0L);
    assertThat(stats.distrustedSources()).isEqualTo(2);
  }

  /**
   * Pulls the whole chain from {@code sources} into a new ledger, checks that it completed with
   * exactly Fabric's blocks, byte for byte, and returns what the puller counted.
   */
  private PullStats pullsFabricsWholeChain(ConfigState sources) throws Exception {
    try (BlockStore store = FixturePulling.store(dir);
        BlockPuller puller = quickPuller(sources)) {
      ChannelLedger ledger = store.createChannel(FixturePulling.CHANNEL);

      assertThat(puller.pullRange(0, FixturePulling.HEIGHT - 1, verifyingAppender(ledger)))
          .isEqualTo(PullOutcome.COMPLETE);

      assertThat(ledger.height()).isEqualTo(FixturePulling.HEIGHT);
      for (int n = 0; n < FixturePulling.HEIGHT; n++) {
        assertThat(ledger.block(n).orElseThrow().bytes()).isEqualTo(CHAIN.get(n).toByteString());
      }
      return puller.stats();
    }
  }

  /**
   * Closing the puller while a source is silent ends the pull as CLOSED: a closed puller has no
   * sources left, which is not "more than f sources refused the chain" (a catch-up would take
   * PREFIX_REFUSED for a foreign chain).
   */
  @Test
  // The puller is closed inside its try on purpose: the test is that closing it ends the pull.
  @SuppressWarnings("try")
  void aPullClosedWhileASourceIsSilentEndsClosed() throws Exception {
    List<ScriptedDeliver> silent = startSources(List.of(Lie.HANG), List.of(1L)).subList(0, 1);
    ConfigState sources = configNaming(silent);
    try (BlockStore store = FixturePulling.store(dir);
        BlockPuller puller = quickPuller(sources)) {
      ChannelLedger ledger = store.createChannel(FixturePulling.CHANNEL);
      VerifyingAppender appender = verifyingAppender(ledger);
      CompletableFuture<PullOutcome> outcome = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(
              () -> {
                try {
                  outcome.complete(puller.pullRange(0, FixturePulling.HEIGHT - 1, appender));
                } catch (InterruptedException | RuntimeException e) {
                  outcome.completeExceptionally(e);
                }
              });
      while (ledger.height() < 1) {
        Thread.sleep(10);
      }
      puller.close();

      assertThat(outcome.get(30, TimeUnit.SECONDS)).isEqualTo(PullOutcome.CLOSED);
    }
  }

  /**
   * One source per lie and an honest one last, in the order the puller asks them (the endpoints'
   * text order), each lying from the matching block on.
   */
  private List<ScriptedDeliver> startSources(List<Lie> lies, List<Long> at) throws Exception {
    List<ScriptedDeliver> started = new ArrayList<>();
    for (int i = 0; i <= lies.size(); i++) {
      started.add(servers.serving(CHAIN));
    }
    List<ScriptedDeliver> byEndpoint =
        started.stream().sorted(Comparator.comparing(FixtureSources::endpoint)).toList();
    for (int i = 0; i < lies.size(); i++) {
      byEndpoint.get(i).lie(lies.get(i), at.get(i));
    }
    return byEndpoint;
  }

  private static BlockPuller quickPuller(ConfigState sources) {
    return new BlockPuller(
        FixturePulling.CHANNEL,
        () -> sources,
        FixturePulling.context(FixturePulling.quickLimits()));
  }

  private static VerifyingAppender verifyingAppender(ChannelLedger ledger)
      throws InvalidConfigException {
    return new VerifyingAppender(ledger, FixturePulling.CRYPTO, Clock.systemUTC());
  }

  private static ConfigState configNaming(List<ScriptedDeliver> named) {
    return FixturePulling.configWithEndpoints(
        named.stream().map(FixtureSources::endpoint).toList());
  }
}
