package io.rubinbft.orderer.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.BindableService;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.testing.Keepalives;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stopped orderer (kill -STOP) ends no Deliver stream: reading must move on from it when it stays
 * silent while blocks are expected, or a load run waits for it until its timeout. The fault suite's
 * stopped backup is the first orderer its load reads from.
 */
class FailoverDeliverTest {

  private final List<GrpcListener> listeners = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    for (GrpcListener listener : listeners) {
      listener.close();
    }
  }

  @Test
  void readingMovesOnFromAnOrdererThatStaysSilentWhileBlocksAreExpected() throws Exception {
    ManagedChannel silent = serve(new SilentDeliver());
    ManagedChannel serving = serve(new OneBlockDeliver(7));
    LinkedBlockingQueue<Long> received = new LinkedBlockingQueue<>();
    FailoverDeliver deliveries =
        new FailoverDeliver(
            List.of(silent, serving),
            height -> Envelope.getDefaultInstance(),
            (block, nanos) -> received.add(block.getHeader().getNumber()),
            7);
    deliveries.start();
    try {
      assertThat(received.poll(500, TimeUnit.MILLISECONDS))
          .as("the silent orderer sends nothing and ends nothing")
          .isNull();
      deliveries.moveOnIfSilentFor(Duration.ofMillis(100));
      assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo(7L);
      assertThat(deliveries.failovers()).isEqualTo(1);
    } finally {
      deliveries.close();
    }
  }

  @Test
  void anOrdererThatBroughtABlockWithinTheSilenceIsKept() throws Exception {
    ManagedChannel serving = serve(new OneBlockDeliver(3));
    ManagedChannel other = serve(new SilentDeliver());
    LinkedBlockingQueue<Long> received = new LinkedBlockingQueue<>();
    FailoverDeliver deliveries =
        new FailoverDeliver(
            List.of(serving, other),
            height -> Envelope.getDefaultInstance(),
            (block, nanos) -> received.add(block.getHeader().getNumber()),
            3);
    deliveries.start();
    try {
      assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo(3L);
      deliveries.moveOnIfSilentFor(Duration.ofMinutes(1));
      assertThat(deliveries.failovers()).isZero();
    } finally {
      deliveries.close();
    }
  }

  private ManagedChannel serve(BindableService deliver) throws Exception {
    GrpcListener listener =
        GrpcListener.start(
            ListenerSettings.of(
                new HostPort("127.0.0.1", 0),
                TlsSettings.plaintext(),
                1 << 20,
                Keepalives.FABRIC_DEFAULTS),
            List.of(deliver));
    listeners.add(listener);
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress(
                "127.0.0.1", listener.address().getPort(), InsecureChannelCredentials.create())
            .build();
    channels.add(channel);
    return channel;
  }

  /** A stopped orderer as its clients see it: streams open and nothing ever comes back. */
  private static final class SilentDeliver extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {
    @Override
    public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responses) {
      return new StreamObserver<>() {
        @Override
        public void onNext(Envelope seek) {}

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {}
      };
    }
  }

  /** Answers every seek with block {@code number} and keeps the stream open, as for a new block. */
  private static final class OneBlockDeliver extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {
    private final long number;

    OneBlockDeliver(long number) {
      this.number = number;
    }

    @Override
    public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responses) {
      return new StreamObserver<>() {
        @Override
        public void onNext(Envelope seek) {
          responses.onNext(
              DeliverResponse.newBuilder()
                  .setBlock(
                      Block.newBuilder().setHeader(BlockHeader.newBuilder().setNumber(number)))
                  .build());
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {}
      };
    }
  }
}
