package io.rubinbft.orderer.testing;

import com.google.protobuf.ByteString;
import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * Single Broadcast and Deliver calls as a client makes them to see whether it may write or read.
 */
public final class ClientCalls {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private ClientCalls() {}

  /**
   * Sends {@code envelope} on a Broadcast stream of its own and returns the answer.
   *
   * @throws IllegalStateException when the call fails or does not answer in time
   */
  public static BroadcastResponse broadcast(Channel orderer, Envelope envelope)
      throws InterruptedException {
    CompletableFuture<BroadcastResponse> answer = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(orderer)
            .broadcast(
                new StreamObserver<>() {
                  @Override
                  public void onNext(BroadcastResponse response) {
                    answer.complete(response);
                  }

                  @Override
                  public void onError(Throwable t) {
                    answer.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {
                    answer.completeExceptionally(
                        new IllegalStateException("the stream ended without an answer"));
                  }
                });
    requests.onNext(envelope);
    requests.onCompleted();
    try {
      return answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Broadcast failed: " + e, e);
    }
  }

  /**
   * Whether a connection gets a gRPC health answer, i.e. its TLS handshake passes (with mutual TLS:
   * the node trusts the client certificate's CA).
   */
  public static boolean answers(Channel orderer) {
    try {
      HealthGrpc.newBlockingStub(orderer)
          .withDeadlineAfter(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
      return true;
    } catch (StatusRuntimeException e) {
      return false;
    }
  }

  /** The final status of a request for the newest block of {@code channel} (FAIL_IF_NOT_READY). */
  public static Status deliverNewest(
      Channel orderer, EnvelopeFactory client, String channel, ByteString tlsCertHash)
      throws InterruptedException {
    return DeliverCalls.request(
            orderer, client.seek(channel, SeekInfos.newest(), tlsCertHash), TIMEOUT)
        .status();
  }
}
