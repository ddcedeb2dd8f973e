package io.rubinbft.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * RocksDB's prefix Bloom filters of the tx index never hide an id the index holds, past the heap
 * filter's bound (here none): ids of every length (shorter than the filters' prefix, exactly as
 * long, longer, sharing a prefix), in memtables and in table files after a restart, and beside
 * another channel holding the same ids. A false "absent" would let a tx id be ordered twice.
 */
class TxIndexPrefixFilterTest {

  private static final long SEED = 20261128L;
  private static final int BLOCK_IDS = 500;
  // Ids beside the shaped ones; the restart moves all of them from the memtables to table files.
  private static final int FILLER_IDS = 5_000;

  @TempDir Path dir;

  @Test
  void everyIndexedIdIsFoundBeforeAndAfterARestartAndNoOtherIs() throws RocksDBException {
    List<String> shaped = shapedIds(new Random(SEED));
    Map<String, Long> alpha = new HashMap<>();
    Map<String, Long> beta = new HashMap<>();
    try (LedgerDatabase db = LedgerDatabase.open(dir)) {
      TxIndex alphaIndex = withoutHeapFilter(db, "alpha", 1);
      TxIndex betaIndex = withoutHeapFilter(db, "beta", 2);
      List<String> history = new ArrayList<>(shaped);
      history.addAll(fabricIds(FILLER_IDS));
      // The shaped ids once more at the end: a lookup finds their first occurrence.
      history.addAll(shaped);
      long number = 0;
      for (int first = 0; first < history.size(); first += BLOCK_IDS, number++) {
        List<String> block = history.subList(first, Math.min(history.size(), first + BLOCK_IDS));
        append(db, alphaIndex, number, block, alpha);
      }
      append(db, betaIndex, 7, shaped, beta);
      assertThat(alphaIndex.filter().mayHold(new byte[] {1})).as("heap filter dropped").isTrue();
      assertThat(betaIndex.filter().mayHold(new byte[] {1})).as("heap filter dropped").isTrue();

      assertExactly(alphaIndex, alpha, shaped, "alpha, before the restart");
      assertExactly(betaIndex, beta, shaped, "beta, before the restart");
    }
    try (LedgerDatabase db = LedgerDatabase.open(dir)) {
      assertExactly(withoutHeapFilter(db, "alpha", 1), alpha, shaped, "alpha, after the restart");
      assertExactly(withoutHeapFilter(db, "beta", 2), beta, shaped, "beta, after the restart");
      // The heap filter rebuilt from the index (a scan across every prefix) holds them all too.
      assertExactly(
          new TxIndex(db, "alpha", 1, TxIdFilter.MIN_IDS, TxIdFilter.MAX_IDS),
          alpha,
          shaped,
          "alpha with its heap filter rebuilt");
    }
  }

  /**
   * A ledger written before the filters existed (its table files have none, its memtables none) and
   * opened with them: the old files are read as they are, the new ones filtered.
   */
  @Test
  void aLedgerWrittenWithoutFiltersIsReadRightlyWithThem() throws RocksDBException {
    List<String> shaped = shapedIds(new Random(SEED + 1));
    Map<String, Long> alpha = new HashMap<>();
    try (LedgerDatabase db = LedgerDatabase.open(dir, false)) {
      append(db, withoutHeapFilter(db, "alpha", 1), 0, shaped, alpha);
    }
    List<String> later = fabricIds(BLOCK_IDS);
    try (LedgerDatabase db = LedgerDatabase.open(dir)) {
      TxIndex index = withoutHeapFilter(db, "alpha", 1);
      assertExactly(index, alpha, shaped, "written without filters");
      append(db, index, 1, later, alpha);
      assertExactly(index, alpha, shaped, "and more with them");
    }
    try (LedgerDatabase db = LedgerDatabase.open(dir)) {
      assertExactly(withoutHeapFilter(db, "alpha", 1), alpha, shaped, "after a restart");
    }
  }

  /** An index whose heap filter is dropped at its first append: lookups go to RocksDB. */
  private static TxIndex withoutHeapFilter(LedgerDatabase db, String channel, int id) {
    return new TxIndex(db, channel, id, 1, 1);
  }

  /**
   * Ids around the filters' 9-byte prefix: 1 to 255 bytes, multi-byte UTF-8, ids sharing their
   * first 9 bytes or being each other's prefix, and a Fabric-shaped one.
   */
  private static List<String> shapedIds(Random random) {
    List<String> ids =
        new ArrayList<>(
            List.of(
                "a",
                "tx-1",
                "abcdefgh",
                "abcdefghi",
                "abcdefghij",
                "abcdefghik",
                "abcdefghijk",
                "ÿÿÿÿÿÿÿÿÿÿ",
                "tx-é-ü-ß-€-漢字",
                "z".repeat(KeyLayout.MAX_TX_ID_BYTES)));
    ids.addAll(fabricIds(1));
    String alphabet = "abcdef0123456789-";
    for (int i = 0; i < 200; i++) {
      int length = 1 + random.nextInt(i % 2 == 0 ? 16 : KeyLayout.MAX_TX_ID_BYTES);
      StringBuilder id = new StringBuilder();
      if (i % 3 == 0) {
        // A neighbour of an earlier id: its start, extended.
        String earlier = ids.get(random.nextInt(ids.size()));
        id.append(earlier, 0, Math.min(earlier.length(), 1 + random.nextInt(12)));
      }
      while (id.length() < length) {
        id.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      ids.add(id.toString());
    }
    return ids.stream()
        .filter(id -> id.getBytes(StandardCharsets.UTF_8).length <= KeyLayout.MAX_TX_ID_BYTES)
        .distinct()
        .toList();
  }

  private static List<String> fabricIds(int count) {
    Random random = new Random(SEED + count);
    List<String> ids = new ArrayList<>(count);
    byte[] digest = new byte[32];
    for (int i = 0; i < count; i++) {
      random.nextBytes(digest);
      ids.add(HexFormat.of().formatHex(digest));
    }
    return ids;
  }

  /** Every id {@code expected} names is found in its first block; near misses are not found. */
  private static void assertExactly(
      TxIndex index, Map<String, Long> expected, List<String> shaped, String what) {
    expected.forEach(
        (txId, number) ->
            assertThat(index.locate(txId).map(TxLocation::blockNumber))
                .as("%s: '%s'", what, txId)
                .contains(number));
    List<String> absent = new ArrayList<>(fabricIds(1000).stream().map(id -> "x" + id).toList());
    for (String txId : shaped) {
      absent.add(txId + "0");
      absent.add(txId.substring(0, txId.length() - 1));
      absent.add(
          txId.substring(0, txId.length() - 1) + (char) (txId.charAt(txId.length() - 1) + 1));
    }
    for (String txId : absent) {
      if (!txId.isEmpty() && !expected.containsKey(txId)) {
        assertThat(index.locate(txId)).as("%s: never ordered '%s'", what, txId).isEmpty();
      }
    }
  }

  private static void append(
      LedgerDatabase db, TxIndex index, long number, List<String> txIds, Map<String, Long> firsts)
      throws RocksDBException {
    BlockData.Builder data = BlockData.newBuilder();
    for (String txId : txIds) {
      data.addData(envelope(txId).toByteString());
      firsts.putIfAbsent(txId, number);
    }
    try (WriteBatch batch = new WriteBatch()) {
      index.addTo(batch, number, Block.newBuilder().setData(data).build());
      db.write(batch, Durability.UNSYNCED, "test append");
    }
  }

  private static Envelope envelope(String txId) {
    ChannelHeader channelHeader = ChannelHeader.newBuilder().setTxId(txId).build();
    Payload payload =
        Payload.newBuilder()
            .setHeader(Header.newBuilder().setChannelHeader(channelHeader.toByteString()))
            .build();
    return Envelope.newBuilder().setPayload(payload.toByteString()).build();
  }
}
