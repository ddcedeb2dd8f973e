package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.HeapSize;
import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.NodeMemory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose heap cannot hold a channel at its worst refuses to join it: {@code osnadmin channel
 * join} gets 400 naming the heap and the sum, and the node holds nothing of the channel (before, it
 * joined with a warning in its log, and a burst of large blocks could exhaust its heap). With the
 * heap of its plan the same join succeeds.
 */
class JoinBeyondTheHeapNodeTest {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  @Test
  void aJoinBeyondTheHeapIsRefusedWith400AndChangesNothing() throws Exception {
    long planHeap = HeapSize.need(HeapSize.Plan.DEFAULT, MemoryBudgets.standard()).heapBytes();
    try (LocalCluster cluster = LocalCluster.generate(dir)) {
      OrdererNode node =
          cluster.startFirst(NodeMemory.of(MemoryBudgets.standard(), planHeap - MIB));

      HttpResponse<String> refused = cluster.join(node);

      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
      assertThat(refused.body())
          .contains("cannot join channel '" + LocalCluster.CHANNEL + "'")
          .contains("need a heap of " + planHeap / MIB + " MiB")
          .contains("but it has " + (planHeap / MIB - 1) + " MiB")
          .contains("RUBIN_CHANNELS");
      assertThat(node.channels().channelNames()).isEmpty();
      assertThat(cluster.info(node).statusCode()).isEqualTo(404);
      cluster.stopAll();

      OrdererNode planned = cluster.startFirst(NodeMemory.of(MemoryBudgets.standard(), planHeap));
      HttpResponse<String> joined = cluster.join(planned);
      assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
    }
  }
}
