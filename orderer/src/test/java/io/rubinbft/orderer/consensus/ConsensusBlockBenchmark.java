package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Request;
import io.rubinbft.orderer.files.FileTrees;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Prints the CPU the four consenters spend per block at light load, without network, gRPC or
 * ledger: the fixture network's replicas in one thread ({@link FabricTestCluster}) with the real
 * Fabric application (block assembly and checks, ECDSA block and vote signatures, SHA-256) and real
 * consensus WALs (append and fdatasync per step), ordering blocks of a few 3.5 KB envelopes one at
 * a time as cut-on-idle does at 200 tx/s. The envelopes are signed before the clock starts. A main,
 * not a test: no timed assertions. From the repo root: {@code mvn -q -pl orderer -am test-compile
 * dependency:build-classpath -Dmdep.outputFile=target/cp.txt && cd orderer && java -cp
 * target/classes:target/test-classes:$(cat target/cp.txt) --enable-native-access=ALL-UNNAMED
 * io.rubinbft.orderer.consensus.ConsensusBlockBenchmark}
 */
public final class ConsensusBlockBenchmark {

  private static final int PAYLOAD_BYTES = 2_800;
  private static final int TX_PER_BLOCK = 5;
  private static final int WARM_UP_BLOCKS = 600;
  private static final int MEASURED_BLOCKS = 400;
  private static final int ROUNDS = 3;
  private static final int MAX_TICKS_PER_BLOCK = 100;

  private ConsensusBlockBenchmark() {}

  public static void main(String[] args) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Path wal = Files.createTempDirectory("rubin-block-bench");
    try (FabricTestCluster cluster = new FabricTestCluster(wal, 64L << 20)) {
      int ordered = order(cluster, 0, WARM_UP_BLOCKS);
      for (int round = 0; round < ROUNDS; round++) {
        List<List<Request>> blocks = signed(cluster, MEASURED_BLOCKS);
        long cpu = threads.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        for (List<Request> block : blocks) {
          cluster.submit(block);
          ordered += block.size();
          cluster.runUntilOrdered(ordered, MAX_TICKS_PER_BLOCK);
        }
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        wall = System.nanoTime() - wall;
        System.out.printf(
            "round %d: %d blocks of %d x %d B payloads: CPU %.3f ms per block (4 consenters),"
                + " wall %.3f ms per block%n",
            round,
            MEASURED_BLOCKS,
            TX_PER_BLOCK,
            PAYLOAD_BYTES,
            cpu / 1e6 / MEASURED_BLOCKS,
            wall / 1e6 / MEASURED_BLOCKS);
      }
      if (cluster.orderedCount(0) != ordered) {
        throw new IllegalStateException(
            "ordered " + cluster.orderedCount(0) + " transactions but expected " + ordered);
      }
    } finally {
      FileTrees.delete(wal);
    }
  }

  private static int order(FabricTestCluster cluster, int ordered, int blocks) {
    int total = ordered;
    for (List<Request> block : signed(cluster, blocks)) {
      cluster.submit(block);
      total += block.size();
      cluster.runUntilOrdered(total, MAX_TICKS_PER_BLOCK);
    }
    return total;
  }

  private static List<List<Request>> signed(FabricTestCluster cluster, int blocks) {
    return Stream.generate(() -> cluster.transactions(TX_PER_BLOCK, PAYLOAD_BYTES))
        .limit(blocks)
        .toList();
  }
}
