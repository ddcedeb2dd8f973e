package io.rubinbft.orderer.tools.loadgen;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;

/**
 * One Deliver request: blocks go to a consumer until the orderer answers with a status. The
 * consumer runs on gRPC's network thread (direct executor), so a block's arrival time is taken when
 * it is read off the connection, with no thread hand-off before it.
 */
final class DeliverStream {

  /** Receives each block with the System.nanoTime it arrived at. */
  interface BlockConsumer {
    void accept(Block block, long receivedNanos);
  }

  private final StreamObserver<Envelope> requests;
  private final CompletableFuture<Status> finished = new CompletableFuture<>();

  private DeliverStream(ManagedChannel channel, BlockConsumer consumer) {
    requests =
        AtomicBroadcastGrpc.newStub(channel)
            .withExecutor(MoreExecutors.directExecutor())
            .deliver(
                new StreamObserver<>() {
                  @Override
                  public void onNext(DeliverResponse response) {
                    if (response.hasBlock()) {
                      consumer.accept(response.getBlock(), System.nanoTime());
                    } else {
                      finished.complete(response.getStatus());
                    }
                  }

                  @Override
                  public void onError(Throwable t) {
                    finished.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {
                    finished.complete(Status.UNKNOWN);
                  }
                });
  }

  /** Sends {@code seek} on a new stream. */
  static DeliverStream open(ManagedChannel channel, Envelope seek, BlockConsumer consumer) {
    DeliverStream stream = new DeliverStream(channel, consumer);
    stream.requests.onNext(seek);
    return stream;
  }

  /** Completes with the orderer's final status (or the stream's error). */
  CompletableFuture<Status> finished() {
    return finished;
  }

  void cancel() {
    requests.onError(new IllegalStateException("the load generator stopped reading this stream"));
  }
}
