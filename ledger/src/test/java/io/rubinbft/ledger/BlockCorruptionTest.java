package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.cli.SyntheticChain;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/** Stored blocks changed behind the store's back (raw RocksDB writes) are caught on read. */
class BlockCorruptionTest {

  private static final int HEIGHT = 5;
  private static final int CHANNEL_ID = 0;

  @TempDir Path dir;

  @BeforeEach
  void fillChain() {
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChannelLedger ledger = store.createChannel("alpha");
      SyntheticChain chain = new SyntheticChain(7, "alpha", 4, 300, Optional.empty());
      for (int i = 0; i < HEIGHT; i++) {
        ledger.append(chain.next().toByteArray(), Durability.SYNCED);
      }
    }
  }

  @Test
  void aFlippedByteFailsTheChecksumNamingChannelAndBlock() throws RocksDBException {
    rewrite(
        2,
        value -> {
          value[value.length / 2] ^= 0x01;
          return value;
        });
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChannelLedger ledger = store.channel("alpha").orElseThrow();
      assertThatThrownBy(() -> ledger.block(2))
          .isInstanceOf(LedgerCorruptionException.class)
          .hasMessageStartingWith("ledger corruption in channel 'alpha', block 2: CRC32C of");
      assertThat(ledger.block(1)).isPresent();
      ChainVerification result = ChainVerifier.verify(ledger);
      assertThat(result.ok()).isFalse();
      assertThat(result.blocksVerified()).isEqualTo(2);
      assertThat(result.problem().orElseThrow()).contains("block 2: CRC32C");
    }
  }

  @Test
  void changedEnvelopesWithARecomputedChecksumFailTheDataHash() throws RocksDBException {
    rewrite(
        3,
        value -> {
          Block block = parse(value);
          Block changed =
              block.toBuilder()
                  .setData(
                      block.getData().toBuilder().setData(0, ByteString.copyFromUtf8("changed")))
                  .build();
          return StoredBlockCodec.encode(changed.toByteArray());
        });
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      assertThatThrownBy(() -> store.channel("alpha").orElseThrow().block(3))
          .hasMessageStartingWith("ledger corruption in channel 'alpha', block 3: data_hash");
    }
  }

  @Test
  void aValidBlockUnderTheWrongNumberOrOutOfChainIsCaught() throws RocksDBException {
    byte[][] block1 = new byte[1][];
    rewrite(
        1,
        value -> {
          block1[0] = value.clone();
          return value;
        });
    rewrite(2, value -> block1[0]);
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      assertThatThrownBy(() -> store.channel("alpha").orElseThrow().block(2))
          .hasMessageEndingWith("block 2: stored under number 2 but its header says 1");
    }
    Block other = new SyntheticChain(99, "alpha", 4, 300, Optional.empty()).next();
    rewrite(0, value -> StoredBlockCodec.encode(other.toByteArray()));
    rewrite(2, value -> block1[0]);
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChainVerification result = ChainVerifier.verify(store.channel("alpha").orElseThrow());
      assertThat(result.problem().orElseThrow())
          .startsWith("ledger corruption in channel 'alpha', block 1: previous_hash of block 1");
    }
  }

  @Test
  void aCorruptLastBlockStopsTheStoreFromOpening() throws RocksDBException {
    rewrite(
        HEIGHT - 1,
        value -> {
          value[value.length - 1] ^= 0x40;
          return value;
        });
    assertThatThrownBy(() -> BlockStore.open(BlockStoreConfig.defaults(dir)))
        .isInstanceOf(LedgerCorruptionException.class)
        .hasMessageStartingWith("ledger corruption in channel 'alpha', block 4: CRC32C");
  }

  /** Replaces the stored value of block {@code number} with a raw RocksDB write. */
  private void rewrite(long number, UnaryOperator<byte[]> change) throws RocksDBException {
    try (LedgerDatabase db = LedgerDatabase.open(dir);
        WriteBatch batch = new WriteBatch()) {
      byte[] key = KeyLayout.blockKey(CHANNEL_ID, number);
      byte[] value = db.get(db.blocks(), key, "test read");
      batch.put(db.blocks(), key, change.apply(value));
      db.write(batch, Durability.SYNCED, "test write");
    }
  }

  private static Block parse(byte[] value) {
    try {
      return Block.parseFrom(Arrays.copyOfRange(value, 4, value.length));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }
}
