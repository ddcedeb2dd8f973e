package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.rubinbft.ledger.cli.SyntheticChain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The tx id filter in front of the index never hides an id the index holds: not while it grows, not
 * once it is dropped past its largest size, not after it is rebuilt from the index at open.
 */
class TxIdFilterTest {

  @TempDir Path dir;

  @Test
  void everyIndexedIdIsFoundWhileTheFilterGrowsAfterItIsDroppedAndAfterARebuild()
      throws RocksDBException {
    try (LedgerDatabase db = LedgerDatabase.open(dir)) {
      // Filter sizes 4..64 ids: 30 blocks of 3 grow it twice (16, 64), then drop it.
      TxIndex index = new TxIndex(db, "alpha", 1, 4, 64);
      SyntheticChain chain = new SyntheticChain(7, "alpha", 3, 200, Optional.empty());
      List<TxIds.Entry> appended = new ArrayList<>();
      List<Long> blocks = new ArrayList<>();
      for (long number = 0; number < 30; number++) {
        Block block = chain.next();
        append(db, index, number, block);
        for (TxIds.Entry entry : TxIds.of(block)) {
          appended.add(entry);
          blocks.add(number);
        }
        assertLocated(index, appended, blocks);
        if (appended.size() == 63) {
          assertThat(absentAnsweredByTheFilter(index)).as("grown to 64 ids").isGreaterThan(950);
        }
      }
      assertThat(index.filter().mayHold(id("never ordered"))).as("dropped past 64 ids").isTrue();

      // Opened again with room for them: rebuilt from the index (4, 16, 64, then 256 ids).
      TxIndex reopened = new TxIndex(db, "alpha", 1, 4, 256);
      assertLocated(reopened, appended, blocks);
      assertThat(absentAnsweredByTheFilter(reopened)).isGreaterThanOrEqualTo(950);
    }
  }

  @Test
  void anIdNeverOrderedIsMostlyAnsweredByTheFilterAndNeverFound() throws RocksDBException {
    try (LedgerDatabase db = LedgerDatabase.open(dir)) {
      TxIndex alpha = new TxIndex(db, "alpha", 1, 4, 8);
      TxIndex beta = new TxIndex(db, "beta", 2);
      SyntheticChain alphaChain = new SyntheticChain(1, "alpha", 2, 200, Optional.empty());
      SyntheticChain betaChain = new SyntheticChain(2, "beta", 10, 200, Optional.empty());
      List<TxIds.Entry> alphaIds = new ArrayList<>();
      for (long number = 0; number < 3; number++) {
        Block block = alphaChain.next();
        append(db, alpha, number, block);
        alphaIds.addAll(TxIds.of(block));
        append(db, beta, number, betaChain.next());
      }
      // Another channel's 30 ids do not count toward alpha's 8 when alpha's filter is rebuilt.
      TxIndex reopened = new TxIndex(db, "alpha", 1, 4, 8);
      assertThat(absentAnsweredByTheFilter(reopened)).isGreaterThanOrEqualTo(950);
      assertThat(absentAnsweredByTheFilter(beta)).isGreaterThanOrEqualTo(950);
      for (TxIds.Entry entry : alphaIds) {
        String txId = new String(entry.txId(), StandardCharsets.UTF_8);
        assertThat(reopened.locate(txId)).isPresent();
        assertThat(beta.locate(txId)).as("alpha's id in beta").isEmpty();
      }
    }
  }

  /**
   * The heap the memory plan counts for a filter is at least its bit array as Guava sizes it (its
   * serialized form: 6 bytes of header, then the array), at every size a filter takes.
   */
  @Test
  void theHeapCountedForAFilterHoldsGuavasBitArray() throws IOException {
    for (int ids = TxIdFilter.MIN_IDS; ids <= TxIdFilter.MAX_IDS; ids *= 4) {
      ByteArrayOutputStream serialized = new ByteArrayOutputStream();
      BloomFilter.create(Funnels.byteArrayFunnel(), ids, TxIdFilter.FALSE_POSITIVES)
          .writeTo(serialized);
      long bitArray = serialized.size() - 6L;
      assertThat(TxIdFilter.heapBytes(ids)).isBetween(bitArray, bitArray + 1024);
    }
    assertThat(BlockStoreConfig.TX_ID_FILTER_HEAP_BYTES)
        .isEqualTo(
            TxIdFilter.heapBytes(TxIdFilter.MAX_IDS)
                + TxIdFilter.heapBytes(TxIdFilter.MAX_IDS / 4));
  }

  private static int absentAnsweredByTheFilter(TxIndex index) {
    return (int)
        IntStream.range(0, 1000)
            .mapToObj(i -> "never ordered " + i)
            .filter(
                txId -> {
                  assertThat(index.locate(txId)).isEmpty();
                  return !index.filter().mayHold(id(txId));
                })
            .count();
  }

  private static void assertLocated(TxIndex index, List<TxIds.Entry> entries, List<Long> blocks) {
    for (int i = 0; i < entries.size(); i++) {
      TxIds.Entry entry = entries.get(i);
      assertThat(index.locate(new String(entry.txId(), StandardCharsets.UTF_8)))
          .as("tx %d of %d", i, entries.size())
          .contains(new TxLocation(blocks.get(i), entry.envelopeIndex()));
    }
  }

  private static void append(LedgerDatabase db, TxIndex index, long number, Block block)
      throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      index.addTo(batch, number, block);
      db.write(batch, Durability.UNSYNCED, "test append");
    }
  }

  private static byte[] id(String txId) {
    return txId.getBytes(StandardCharsets.UTF_8);
  }
}
