package io.rubinbft.orderer.loadgen;

import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;

/** One Deliver request: blocks go to a consumer until the orderer answers with a status. */
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

  /**
   * Sends {@code seek} and collects the blocks of a bounded request.
   *
   * @param what names the request in errors, e.g. "block 0 of channel 'mychannel'"
   * @throws IllegalStateException when the orderer does not answer SUCCESS in time
   */
  static List<Block> fetch(ManagedChannel channel, Envelope seek, long timeoutMillis, String what)
      throws InterruptedException {
    List<Block> blocks = new CopyOnWriteArrayList<>();
    DeliverStream stream = open(channel, seek, (block, nanos) -> blocks.add(block));
    try {
      Status status = stream.finished().get(timeoutMillis, TimeUnit.MILLISECONDS);
      if (status != Status.SUCCESS) {
        throw new IllegalStateException("cannot read " + what + ": Deliver answered " + status);
      }
      return List.copyOf(blocks);
    } catch (ExecutionException | TimeoutException e) {
      stream.cancel();
      throw new IllegalStateException("cannot read " + what + ": " + e.getMessage(), e);
    }
  }

  /** Completes with the orderer's final status (or the stream's error). */
  CompletableFuture<Status> finished() {
    return finished;
  }

  void cancel() {
    requests.onError(new IllegalStateException("load run finished"));
  }
}
