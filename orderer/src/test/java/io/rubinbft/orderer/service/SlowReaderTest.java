package io.rubinbft.orderer.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer that reads one block at a time: far more block bytes than gRPC's windows and buffers hold,
 * so the server must stop at the transport's limit and go on each time the reader takes a block.
 */
class SlowReaderTest {

  private static final int EXTRA_BLOCKS = 40;
  private static final int ENVELOPE_DATA_BYTES = 200_000;

  @Test
  void aSlowReaderGetsEveryBlockInOrder(@TempDir Path directory)
      throws IOException, InterruptedException {
    try (ServiceNode node = ServiceNode.start(directory)) {
      List<Block> appended = appendLargeBlocks(node);
      OneAtATime reader = new OneAtATime();
      node.stub().deliver(reader);
      long last = ServiceNode.FIXTURE_HEIGHT + EXTRA_BLOCKS - 1;
      reader.requests.onNext(
          DeliverClient.seek(ServiceNode.FIXTURE_HEIGHT, last, SeekBehavior.BLOCK_UNTIL_READY));

      for (Block block : appended) {
        assertThat(reader.take().getBlock().toByteString()).isEqualTo(block.toByteString());
      }
      assertThat(reader.take().getStatus()).isEqualTo(Status.SUCCESS);
    }
  }

  private static List<Block> appendLargeBlocks(ServiceNode node) {
    EnvelopeFactory user1 = ServiceNode.user1Envelopes();
    List<Block> appended = new ArrayList<>();
    Block previous = Fixtures.block(ServiceNode.FIXTURE_HEIGHT - 1);
    for (int i = 0; i < EXTRA_BLOCKS; i++) {
      Envelope envelope = user1.transaction("fixture", new byte[ENVELOPE_DATA_BYTES]).envelope();
      previous = NextBlock.after(previous, envelope);
      node.ledger.append(previous.toByteArray(), Durability.UNSYNCED);
      appended.add(previous);
    }
    return appended;
  }

  /** Asks gRPC for one response only when the test takes one. */
  private static final class OneAtATime
      implements ClientResponseObserver<Envelope, DeliverResponse> {

    private final BlockingQueue<DeliverResponse> arrived = new LinkedBlockingQueue<>();
    private ClientCallStreamObserver<Envelope> requests;

    @Override
    public void beforeStart(ClientCallStreamObserver<Envelope> requestStream) {
      requests = requestStream;
      requestStream.disableAutoRequestWithInitial(0);
    }

    DeliverResponse take() throws InterruptedException {
      requests.request(1);
      DeliverResponse response = arrived.poll(30, TimeUnit.SECONDS);
      assertThat(response).as("a response within 30 s").isNotNull();
      return response;
    }

    @Override
    public void onNext(DeliverResponse value) {
      arrived.add(value);
    }

    @Override
    public void onError(Throwable t) {
      throw new AssertionError("the Deliver stream failed", t);
    }

    @Override
    public void onCompleted() {}
  }
}
