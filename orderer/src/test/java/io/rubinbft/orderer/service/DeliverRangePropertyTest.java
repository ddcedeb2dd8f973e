package io.rubinbft.orderer.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.service.DeliverClient.Answer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random Specified..Specified requests against a chain of 10 blocks, each compared with what
 * Fabric's deliver loop sends: a start beyond the height is 404 at once; start > stop is 400;
 * otherwise the blocks that exist from start to stop, then 200 when stop exists, or 404 at the
 * first missing block with FAIL_IF_NOT_READY.
 */
class DeliverRangePropertyTest {

  private static final int REQUESTS = 40;

  @Test
  void everyRangeGetsFabricsBlocksAndStatus(@TempDir Path directory)
      throws IOException, InterruptedException {
    long seed = new Random().nextLong();
    System.out.println("DeliverRangePropertyTest seed " + seed);
    Random random = new Random(seed);
    try (ServiceNode node = ServiceNode.start(directory)) {
      for (int i = 0; i < REQUESTS; i++) {
        int start = random.nextInt(13);
        int stop = random.nextInt(13);
        // Waiting for a block that never comes would block the test: wait only within the chain.
        SeekBehavior behavior =
            stop < ServiceNode.FIXTURE_HEIGHT && random.nextBoolean()
                ? SeekBehavior.BLOCK_UNTIL_READY
                : SeekBehavior.FAIL_IF_NOT_READY;

        Answer answer =
            new DeliverClient(node.stub()).request(DeliverClient.seek(start, stop, behavior));

        assertThat(answer)
            .as("seed %d: %d..%d %s", seed, start, stop, behavior)
            .isEqualTo(expected(start, stop));
      }
    }
  }

  private static Answer expected(int start, int stop) {
    if (start > ServiceNode.FIXTURE_HEIGHT) {
      return new Answer(List.of(), Status.NOT_FOUND);
    }
    if (start > stop) {
      return new Answer(List.of(), Status.BAD_REQUEST);
    }
    List<ByteString> blocks = new ArrayList<>();
    for (int n = start; n <= Math.min(stop, ServiceNode.FIXTURE_HEIGHT - 1); n++) {
      blocks.add(DeliverServiceTest.stored(n));
    }
    Status status = stop < ServiceNode.FIXTURE_HEIGHT ? Status.SUCCESS : Status.NOT_FOUND;
    return new Answer(blocks, status);
  }
}
