package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.ledger.wal.Wal;
import io.rubinbft.ledger.wal.WalConfig;
import io.rubinbft.orderer.files.FileTrees;
import io.rubinbft.orderer.memory.MemoryBudgets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Prints what replica 0's consensus WAL holds per decided block after the fixture network's four
 * real replicas ({@link FabricTestCluster}) ordered 3.5 KB envelopes: records and bytes as written
 * ({@link ProposalSharingFormat}), and the bytes the same records take as plain records (the format
 * before it). Bytes count each record's payload and its 8-byte frame. Counts, not time: no clock.
 * From the repo root: {@code mvn -q -pl orderer -am test-compile dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt && cd orderer && java -cp
 * target/classes:target/test-classes:$(cat target/cp.txt) --enable-native-access=ALL-UNNAMED
 * io.rubinbft.orderer.consensus.WalBytesBenchmark}
 */
public final class WalBytesBenchmark {

  private static final int PAYLOAD_BYTES = 3_500;
  private static final int FRAME_BYTES = 8;
  private static final int MAX_TICKS_PER_SUBMISSION = 200;
  // Big enough that no segment is cut: every record written is still there to count.
  private static final long SEGMENT_BYTES = 1L << 30;

  private WalBytesBenchmark() {}

  public static void main(String[] args) throws Exception {
    for (int[] run : new int[][] {{5, 200}, {100, 30}}) {
      measure(run[0], run[1]);
    }
  }

  private static void measure(int perSubmission, int submissions) throws Exception {
    // The fixture channel's BatchSize and cut-on-idle decide the blocks: count what was decided.
    Path root = Files.createTempDirectory("rubin-wal-bytes");
    try {
      long decided;
      WalRecordCodec codec;
      try (FabricTestCluster cluster = new FabricTestCluster(root, SEGMENT_BYTES)) {
        int ordered = 0;
        for (int i = 0; i < submissions; i++) {
          cluster.submit(cluster.transactions(perSubmission, PAYLOAD_BYTES));
          ordered += perSubmission;
          cluster.runUntilOrdered(ordered, MAX_TICKS_PER_SUBMISSION);
        }
        decided = cluster.chain(0).size();
        codec =
            new WalRecordCodec(
                ChannelReplicas.wireLimits(
                    ChannelReplicas.replicaConfig(
                        cluster.channel, 0, Duration.ofMillis(10), MemoryBudgets.standard())));
      }
      WalConfig config = new WalConfig(root.resolve("replica-0"), 1 << 29, SEGMENT_BYTES);
      long[] written = new long[3]; // records, bytes, shared records
      try (Wal wal = Wal.open(config)) {
        wal.replay(
            wal.firstIndex(),
            (index, payload) -> {
              written[0]++;
              written[1] += payload.length + FRAME_BYTES;
              written[2] += payload[0] == ProposalSharingFormat.SHARED ? 1 : 0;
            });
      }
      ConsensusLog.Opened opened = ConsensusLog.open(config, codec, () -> Long.MAX_VALUE);
      List<WalRecord> records = ConsensusLogTest.replayed(opened);
      opened.log().close();
      long plainBytes =
          records.stream().mapToLong(r -> codec.encode(r).length + (long) FRAME_BYTES).sum();
      System.out.printf(
          "%d envelopes of %d B in %d decided blocks (submitted %d at a time), replica 0: %.2f"
              + " records per decided block (%.2f shared), %.0f bytes per block written, %.0f"
              + " as plain records: %.1f %%%n",
          perSubmission * submissions,
          PAYLOAD_BYTES,
          decided,
          perSubmission,
          (double) written[0] / decided,
          (double) written[2] / decided,
          (double) written[1] / decided,
          (double) plainBytes / decided,
          100.0 * written[1] / plainBytes);
    } finally {
      FileTrees.delete(root);
    }
  }
}
