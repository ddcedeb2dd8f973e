package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.cli.SyntheticChain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockStoreTest {

  @TempDir Path dir;
  private BlockStore store;
  private ChannelLedger ledger;
  private SyntheticChain chain;

  @BeforeEach
  void open() {
    store = BlockStore.open(BlockStoreConfig.defaults(dir));
    ledger = store.createChannel("alpha");
    chain = new SyntheticChain(1, "alpha", 3, 200, Optional.empty());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void appendRefusesAWrongNumberWithBothNumbers() {
    appendNext(8);
    Block skipped = chain.next();
    Block wrong = chain.next();
    assertThat(skipped.getHeader().getNumber()).isEqualTo(8);
    assertThatThrownBy(() -> ledger.append(wrong.toByteArray(), Durability.SYNCED))
        .isInstanceOf(InvalidBlockException.class)
        .hasMessage("block refused by channel 'alpha': block number is 9 but expected 8");
  }

  @Test
  void theCallersArrayMayBeReusedAfterAnAppend() {
    byte[] bytes = chain.next().toByteArray();
    byte[] original = bytes.clone();
    ledger.append(bytes, Durability.UNSYNCED);
    Arrays.fill(bytes, (byte) 0);
    assertThat(ledger.lastHeader().orElseThrow().getDataHash())
        .isEqualTo(ledger.block(0).orElseThrow().block().getHeader().getDataHash());
    assertThat(ledger.block(0).orElseThrow().bytes().toByteArray()).isEqualTo(original);
    appendNext(1);
    assertThat(ledger.height()).isEqualTo(2);
  }

  @Test
  void appendRefusesAWrongPreviousHash() {
    appendNext(2);
    Block block = chain.next();
    Block forged =
        block.toBuilder()
            .setHeader(
                block.getHeader().toBuilder().setPreviousHash(ByteString.copyFrom(new byte[32])))
            .build();
    assertThatThrownBy(() -> ledger.append(forged.toByteArray(), Durability.SYNCED))
        .isInstanceOf(InvalidBlockException.class)
        .hasMessageContaining("previous_hash of block 2 is " + "00".repeat(32))
        .hasMessageContaining("but the hash of block 1's header is");
    assertThat(ledger.height()).isEqualTo(2);
  }

  @Test
  void appendRefusesAWrongDataHashAndBytesThatAreNoBlock() {
    Block block = chain.next();
    Block tampered =
        block.toBuilder()
            .setData(block.getData().toBuilder().setData(0, ByteString.copyFromUtf8("forged")))
            .build();
    assertThatThrownBy(() -> ledger.append(tampered.toByteArray(), Durability.SYNCED))
        .hasMessageContaining("data_hash in the header is");
    assertThatThrownBy(() -> ledger.append(new byte[] {(byte) 0xff, 1}, Durability.SYNCED))
        .isInstanceOf(InvalidBlockException.class)
        .hasMessageContaining("bytes do not parse as a Block");
    assertThat(ledger.height()).isZero();
  }

  @Test
  void limitsOnBlockSizeChannelsAndListenersPushBack() {
    store.close();
    store = BlockStore.open(new BlockStoreConfig(dir, 1000, 2, 1));
    ChannelLedger small = store.channel("alpha").orElseThrow();
    byte[] bytes = new SyntheticChain(2, "alpha", 10, 200, Optional.empty()).next().toByteArray();
    assertThatThrownBy(() -> small.append(bytes, Durability.SYNCED))
        .isInstanceOf(InvalidBlockException.class)
        .hasMessageContaining("block has " + bytes.length + " bytes, more than the limit of 1000");
    store.createChannel("beta");
    assertThatThrownBy(() -> store.createChannel("gamma"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the store holds 2 channels, the limit; remove one first");
    small.onHeight(height -> {});
    assertThatThrownBy(() -> small.onHeight(height -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("channel 'alpha' already has 1 height listeners, the limit");
  }

  @Test
  void channelsAreIndependentAndRemovalDeletesEverything() {
    appendNext(3);
    ChannelLedger beta = store.createChannel("beta");
    SyntheticChain betaChain = new SyntheticChain(3, "beta", 2, 100, Optional.empty());
    beta.append(betaChain.next().toByteArray(), Durability.SYNCED);
    assertThat(store.channelNames()).containsExactly("alpha", "beta");
    assertThatThrownBy(() -> store.createChannel("beta")).hasMessageContaining("already exists");
    assertThatThrownBy(() -> store.createChannel("Bad_Name")).hasMessageContaining("lowercase");

    store.removeChannel("alpha");
    assertThat(store.channelNames()).containsExactly("beta");
    assertThatThrownBy(() -> ledger.block(0)).hasMessageContaining("was removed");
    ChannelLedger again = store.createChannel("alpha");
    assertThat(again.height()).isZero();
    assertThat(again.block(0)).isEmpty();

    store.close();
    store = BlockStore.open(BlockStoreConfig.defaults(dir));
    assertThat(store.channelNames()).containsExactly("alpha", "beta");
    assertThat(store.channel("alpha").orElseThrow().height()).isZero();
    assertThat(store.channel("beta").orElseThrow().height()).isEqualTo(1);
  }

  @Test
  void cursorFollowsNewBlocksAndHeightWaitsWakeUp() throws InterruptedException {
    appendNext(2);
    BlockCursor cursor = ledger.cursor(1);
    assertThat(cursor.next().orElseThrow().number()).isEqualTo(1);
    assertThat(cursor.next()).isEmpty();
    assertThat(ledger.awaitHeight(3, Duration.ZERO)).isFalse();

    List<Long> heard = new CopyOnWriteArrayList<>();
    HeightSubscription subscription = ledger.onHeight(heard::add);
    Thread appender = Thread.ofPlatform().start(() -> appendNext(1));
    assertThat(ledger.awaitHeight(3, Duration.ofMinutes(1))).isTrue();
    appender.join();
    subscription.close();
    appendNext(1);
    assertThat(heard).containsExactly(3L);
    assertThat(cursor.next().orElseThrow().number()).isEqualTo(2);
    assertThat(cursor.next().orElseThrow().number()).isEqualTo(3);
  }

  @Test
  void aClosedStoreRefusesCallsInsteadOfTouchingFreedMemory() {
    appendNext(1);
    store.close();
    assertThatThrownBy(() -> ledger.block(0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> ledger.locate("x")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void removalWakesWaiters() throws InterruptedException {
    Thread remover = Thread.ofPlatform().start(() -> store.removeChannel("alpha"));
    assertThat(ledger.awaitHeight(1, Duration.ofMinutes(1))).isFalse();
    remover.join();
  }

  private void appendNext(int count) {
    for (int i = 0; i < count; i++) {
      ledger.append(chain.next().toByteArray(), Durability.UNSYNCED);
    }
  }
}
