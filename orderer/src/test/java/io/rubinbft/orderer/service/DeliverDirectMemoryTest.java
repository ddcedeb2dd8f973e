package io.rubinbft.orderer.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block response that finds the node's direct memory full (netty's allocator or the JDK's, both
 * bounded by the memory plan) ends that Deliver stream with RESOURCE_EXHAUSTED, which the reader
 * retries; before, the error ended the request's thread and left the stream open with no answer.
 */
class DeliverDirectMemoryTest {

  @Test
  void aResponseThatFindsDirectMemoryFullEndsItsStreamAndTheNextReaderIsServed(
      @TempDir Path directory) throws IOException, InterruptedException {
    FailingOnce firstBlockFails = new FailingOnce();
    try (ServiceNode node = ServiceNode.startWithOutbound(directory, firstBlockFails)) {
      DeliverClient unlucky = new DeliverClient(node.stub());
      unlucky.requests.onNext(
          DeliverClient.seek(0, ServiceNode.FIXTURE_HEIGHT - 1, SeekBehavior.BLOCK_UNTIL_READY));

      Status ended = unlucky.responses.end();
      assertThat(ended.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(ended.getDescription()).contains("direct memory");
      assertThat(firstBlockFails.failed.get()).isEqualTo(1);

      DeliverClient next = new DeliverClient(node.stub());
      DeliverClient.Answer answer =
          next.request(
              DeliverClient.seek(
                  0, ServiceNode.FIXTURE_HEIGHT - 1, SeekBehavior.BLOCK_UNTIL_READY));
      assertThat(answer.blocks()).hasSize(ServiceNode.FIXTURE_HEIGHT);
      assertThat(answer.status()).isEqualTo(org.hyperledger.fabric.protos.common.Status.SUCCESS);
    }
  }

  /** Fails the first block response sent as a full direct memory fails it (the JDK's text). */
  private static final class FailingOnce implements ServerInterceptor {

    final AtomicInteger failed = new AtomicInteger();

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      return next.startCall(
          new SimpleForwardingServerCall<>(call) {
            @Override
            public void sendMessage(R message) {
              if (message instanceof DeliverResponse response
                  && response.hasBlock()
                  && failed.compareAndSet(0, 1)) {
                throw new OutOfMemoryError(
                    "Cannot reserve 4194304 bytes of direct buffer memory (allocated: 100663296,"
                        + " limit: 100663296)");
              }
              super.sendMessage(message);
            }
          },
          headers);
    }
  }
}
