package io.rubinbft.orderer.testing;

import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;

/** One Deliver request on a stream of its own, read to its final status. */
public final class DeliverCalls {

  /** The blocks an orderer sent and the status it ended with. */
  public record Answer(List<Block> blocks, Status status) {}

  private DeliverCalls() {}

  /**
   * Sends {@code seek} and collects the answer.
   *
   * @throws IllegalStateException when the call fails or no status comes within {@code timeout}
   */
  public static Answer request(Channel orderer, Envelope seek, Duration timeout)
      throws InterruptedException {
    List<Block> blocks = new ArrayList<>();
    Status status = stream(orderer, seek, timeout, blocks::add);
    return new Answer(List.copyOf(blocks), status);
  }

  /**
   * Sends {@code seek}, hands each block to {@code consumer} as it arrives (on one gRPC thread at a
   * time) and returns the final status.
   *
   * @throws IllegalStateException when the call fails or no status comes within {@code timeout}
   */
  public static Status stream(
      Channel orderer, Envelope seek, Duration timeout, Consumer<Block> consumer)
      throws InterruptedException {
    CompletableFuture<Status> status = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(orderer)
            .deliver(
                new StreamObserver<>() {
                  @Override
                  public void onNext(DeliverResponse response) {
                    if (response.hasBlock()) {
                      consumer.accept(response.getBlock());
                    } else {
                      status.complete(response.getStatus());
                    }
                  }

                  @Override
                  public void onError(Throwable t) {
                    status.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {
                    status.completeExceptionally(
                        new IllegalStateException("the stream ended without a status"));
                  }
                });
    requests.onNext(seek);
    try {
      Status ended = status.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      requests.onCompleted();
      return ended;
    } catch (ExecutionException | TimeoutException e) {
      requests.onError(new IllegalStateException("test gave up"));
      throw new IllegalStateException("Deliver failed: " + e, e);
    }
  }
}
