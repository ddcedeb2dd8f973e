package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.cli.SyntheticChain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of create, append (valid and invalid), read, iterate, tx lookup, remove and
 * reopen, checked against {@link ReferenceLedger}. Every run prints its seed; to replay one, put it
 * in {@link #run}.
 */
class BlockStorePropertyTest {

  private static final String[] NAMES = {"alpha", "beta", "gamma"};

  @TempDir Path dir;

  @Test
  void agreesWithTheReferenceOnRandomOperations() throws InvalidProtocolBufferException {
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    for (int run = 0; run < 3; run++) {
      run(seed + run, 150, dir.resolve("run" + run));
    }
  }

  @Test
  @Tag("long")
  void agreesWithTheReferenceOnManyLongSequences() throws InvalidProtocolBufferException {
    long seed = Long.getLong("rubin.seed", new Random().nextLong());
    for (int run = 0; run < 8; run++) {
      run(seed + run, 1000, dir.resolve("run" + run));
    }
  }

  private static void run(long seed, int steps, Path path) throws InvalidProtocolBufferException {
    System.out.println("BlockStorePropertyTest seed " + seed);
    Random random = new Random(seed);
    SyntheticChain envelopes = new SyntheticChain(seed, "alpha", 3, 120, Optional.empty());
    Map<String, ReferenceLedger> model = new TreeMap<>();
    BlockStore store = BlockStore.open(BlockStoreConfig.defaults(path));
    try {
      for (int step = 0; step < steps; step++) {
        String name = NAMES[random.nextInt(NAMES.length)];
        ReferenceLedger reference = model.get(name);
        int op = random.nextInt(100);
        if (reference == null) {
          store.createChannel(name);
          model.put(name, new ReferenceLedger());
        } else if (op < 40) {
          appendValid(store.channel(name).orElseThrow(), reference, envelopes, random);
        } else if (op < 48) {
          appendInvalid(store.channel(name).orElseThrow(), reference, envelopes, random);
        } else if (op < 88) {
          checkReads(store.channel(name).orElseThrow(), reference, random);
        } else if (op < 93) {
          store.removeChannel(name);
          model.remove(name);
        } else {
          store.close();
          store = BlockStore.open(BlockStoreConfig.defaults(path));
        }
        assertThat(store.channelNames())
            .as("seed %d", seed)
            .containsExactlyElementsOf(model.keySet());
      }
    } finally {
      store.close();
    }
  }

  private static void appendValid(
      ChannelLedger ledger, ReferenceLedger reference, SyntheticChain source, Random random)
      throws InvalidProtocolBufferException {
    List<ByteString> data = new ArrayList<>(source.next().getData().getDataList());
    if (!reference.envelopes.isEmpty() && random.nextInt(4) == 0) {
      // A transaction ordered twice: the index must keep pointing at its first occurrence.
      data.set(0, reference.envelopes.get(random.nextInt(reference.envelopes.size())));
    }
    byte[] bytes = chained(reference, data, 0).toByteArray();
    ledger.append(bytes, random.nextBoolean() ? Durability.SYNCED : Durability.UNSYNCED);
    reference.append(bytes);
  }

  private static void appendInvalid(
      ChannelLedger ledger, ReferenceLedger reference, SyntheticChain source, Random random)
      throws InvalidProtocolBufferException {
    int skip = 1 + random.nextInt(3);
    Block block = chained(reference, source.next().getData().getDataList(), skip);
    int height = reference.blocks.size();
    assertThatThrownBy(() -> ledger.append(block.toByteArray(), Durability.UNSYNCED))
        .isInstanceOf(InvalidBlockException.class)
        .hasMessageEndingWith("block number is " + (height + skip) + " but expected " + height);
    assertThat(ledger.height()).isEqualTo(reference.blocks.size());
  }

  private static void checkReads(ChannelLedger ledger, ReferenceLedger reference, Random random) {
    int height = reference.blocks.size();
    assertThat(ledger.height()).isEqualTo(height);
    long number = random.nextInt(height + 2);
    Optional<StoredBlock> read = ledger.block(number);
    if (number < height) {
      assertThat(read.orElseThrow().bytes().toByteArray())
          .isEqualTo(reference.blocks.get((int) number));
    } else {
      assertThat(read).isEmpty();
    }
    BlockCursor cursor = ledger.cursor(number);
    for (long n = number; n < height; n++) {
      assertThat(cursor.next().orElseThrow().bytes().toByteArray())
          .isEqualTo(reference.blocks.get((int) n));
    }
    assertThat(cursor.next()).isEmpty();
    reference.firstOccurrence.forEach(
        (txId, location) -> assertThat(ledger.locate(txId)).contains(location));
  }

  /** A block with {@code data} that claims to follow the reference's chain {@code skip} late. */
  private static Block chained(ReferenceLedger reference, List<ByteString> data, int skip)
      throws InvalidProtocolBufferException {
    BlockData blockData = BlockData.newBuilder().addAllData(data).build();
    byte[] previous =
        reference.blocks.isEmpty()
            ? new byte[0]
            : BlockHashing.headerHash(reference.last().getHeader());
    BlockHeader header =
        BlockHeader.newBuilder()
            .setNumber(reference.blocks.size() + skip)
            .setPreviousHash(ByteString.copyFrom(previous))
            .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(blockData)))
            .build();
    return Block.newBuilder().setHeader(header).setData(blockData).build();
  }
}
