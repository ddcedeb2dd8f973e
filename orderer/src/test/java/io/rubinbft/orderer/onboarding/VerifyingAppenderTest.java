package io.rubinbft.orderer.onboarding;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.testing.ScriptedDeliver;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pulled blocks checked as a Fabric peer checks them, on Fabric's own chain: every genuine block is
 * kept byte for byte; a forged one is discarded with a reason that names what is wrong, and the
 * genuine block is still taken after it.
 */
class VerifyingAppenderTest {

  private static final List<Block> CHAIN = FixturePulling.chain();

  @TempDir Path dir;
  private BlockStore store;
  private ChannelLedger ledger;
  private VerifyingAppender appender;

  @BeforeEach
  void open() throws Exception {
    store = FixturePulling.store(dir);
    ledger = store.createChannel(FixturePulling.CHANNEL);
    appender = new VerifyingAppender(ledger, FixturePulling.CRYPTO, Clock.systemUTC());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void keepsFabricsChainByteForByteAndFollowsItsConfigBlock() {
    for (Block block : CHAIN) {
      assertThat(appender.accept(block)).isEmpty();
    }
    assertThat(ledger.height()).isEqualTo(FixturePulling.HEIGHT);
    for (int n = 0; n < FixturePulling.HEIGHT; n++) {
      assertThat(ledger.block(n).orElseThrow().bytes()).isEqualTo(CHAIN.get(n).toByteString());
    }
    assertThat(appender.inForce().orElseThrow().config().blockNumber())
        .isEqualTo(FixturePulling.NEWEST_CONFIG_BLOCK);
  }

  @Test
  void aFlippedSignatureByteLeavesTheBlockShortOfAQuorum() {
    takeUpTo(3);
    Optional<Refusal> rejected = appender.accept(ScriptedDeliver.flipFirstSignature(CHAIN.get(3)));
    assertThat(rejected)
        .hasValueSatisfying(
            reason -> {
              assertThat(reason.check()).isEqualTo(Refusal.Check.SIGNATURES);
              assertThat(reason.message())
                  .startsWith("block 3 has 2 valid consenter signatures")
                  .contains("but needs 3 of 4");
            });
    assertThat(ledger.height()).isEqualTo(3);
    assertThat(appender.accept(CHAIN.get(3))).isEmpty();
  }

  @Test
  void aWrongPreviousHashBreaksEverySignatureOverTheHeader() {
    takeUpTo(4);
    assertThat(appender.accept(ScriptedDeliver.withZeroPreviousHash(CHAIN.get(4))))
        .hasValueSatisfying(
            reason -> assertThat(reason.message()).startsWith("block 4 has 0 valid"));
    assertThat(ledger.height()).isEqualTo(4);
  }

  @Test
  void changedEnvelopesDoNotHashToTheSignedHeader() {
    takeUpTo(2);
    byte[] envelope = CHAIN.get(2).getData().getData(0).toByteArray();
    envelope[envelope.length - 1] ^= 0x01;
    Block forged =
        CHAIN.get(2).toBuilder()
            .setData(CHAIN.get(2).getData().toBuilder().setData(0, ByteString.copyFrom(envelope)))
            .build();
    assertThat(appender.accept(forged))
        .hasValueSatisfying(
            reason -> {
              assertThat(reason.check()).isEqualTo(Refusal.Check.CHAIN);
              assertThat(reason.message()).contains("data_hash in the header is");
            });
    assertThat(ledger.height()).isEqualTo(2);
  }

  @Test
  void aGenuineBlockOutOfPlaceIsRefusedByNumber() {
    takeUpTo(3);
    assertThat(appender.accept(CHAIN.get(5)))
        .hasValueSatisfying(
            reason -> assertThat(reason.message()).contains("block number is 5 but expected 3"));
  }

  @Test
  void aChainMustStartWithAConfigBlock() {
    assertThat(appender.accept(CHAIN.get(1)))
        .hasValue(
            new Refusal(
                Refusal.Check.CONFIG, "block 1 is not a config block but a chain starts with one"));
    assertThat(ledger.height()).isZero();
  }

  @Test
  void resumesFromWhatTheLedgerHoldsWithTheConfigInForceThere() throws Exception {
    takeUpTo(8);
    VerifyingAppender resumed =
        new VerifyingAppender(ledger, FixturePulling.CRYPTO, Clock.systemUTC());
    assertThat(resumed.inForce().orElseThrow().config().blockNumber())
        .isEqualTo(FixturePulling.NEWEST_CONFIG_BLOCK);
    assertThat(resumed.accept(ScriptedDeliver.flipFirstSignature(CHAIN.get(8)))).isPresent();
    assertThat(resumed.accept(CHAIN.get(8))).isEmpty();
  }

  private void takeUpTo(int height) {
    for (int n = 0; n < height; n++) {
      assertThat(appender.accept(CHAIN.get(n))).isEmpty();
    }
  }
}
