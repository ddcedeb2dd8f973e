package io.rubinbft.orderer.grpc;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.Keepalives;
import io.rubinbft.orderer.testing.StrangerSockets;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stranger and a TLS client against the gRPC listener with Fabric's default MaxRecvMsgSize (100
 * MB): a TLS handshake that never finishes is closed at the deadline, a message larger than any
 * channel can order is refused whatever MaxRecvMsgSize says, and one connection gets at most {@link
 * GrpcListener#MAX_CONCURRENT_STREAMS} calls at once.
 */
class GrpcStrangerTest {

  private static final Path NODE_TLS = FabricFixtures.orderer(1).resolve("tls");

  private final AtomicInteger callsStarted = new AtomicInteger();
  private final AtomicInteger envelopesTaken = new AtomicInteger();
  private GrpcListener listener;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    listener =
        GrpcListener.start(
            ListenerSettings.of(
                new HostPort("127.0.0.1", 0),
                FabricFixtures.ordererServerTls(1),
                100L << 20,
                Keepalives.FABRIC_DEFAULTS),
            List.of(new HoldsEveryCall()));
    channel =
        Grpc.newChannelBuilderForAddress(
                "localhost",
                listener.address().getPort(),
                TlsChannelCredentials.newBuilder()
                    .trustManager(NODE_TLS.resolve("ca.crt").toFile())
                    .build())
            .build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    listener.close();
  }

  @Test
  void aTlsHandshakeThatNeverFinishesIsClosedAtTheDeadline() throws IOException {
    // The start of a TLS record announcing a ClientHello of 512 bytes, then nothing.
    assertClosedAtTheHandshakeDeadline(listener, new byte[] {0x16, 0x03, 0x01, 0x02, 0x00});
  }

  /**
   * Without TLS (Fabric's default is off) the handshake is HTTP/2's preface: netty's TLS handler
   * has a deadline of its own, this one only gRPC's, 120 s by default before the fix.
   */
  @Test
  void aPlaintextConnectionThatNeverSendsThePrefaceIsClosedAtTheDeadline() throws IOException {
    try (GrpcListener plaintext =
        GrpcListener.start(
            ListenerSettings.of(
                new HostPort("127.0.0.1", 0),
                TlsSettings.plaintext(),
                100L << 20,
                Keepalives.FABRIC_DEFAULTS),
            List.of(new HoldsEveryCall()))) {
      assertClosedAtTheHandshakeDeadline(plaintext, "PRI * HTTP/2.0".getBytes(US_ASCII));
    }
  }

  private static void assertClosedAtTheHandshakeDeadline(GrpcListener target, byte[] start)
      throws IOException {
    long patience = TimeUnit.SECONDS.toMillis(GrpcListener.HANDSHAKE_TIMEOUT_SECONDS + 15);
    try (Socket stranger = new Socket()) {
      stranger.connect(new InetSocketAddress("127.0.0.1", target.address().getPort()), 5_000);
      stranger.getOutputStream().write(start);
      assertThat(StrangerSockets.closedByTheNode(stranger, (int) patience))
          .as("the node closed the connection within %d ms", patience)
          .isTrue();
    }
  }

  @Test
  void aMessageLargerThanAnyChannelCanOrderIsRefusedWhateverMaxRecvMsgSizeSays() throws Exception {
    CompletableFuture<Status> refused = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(channel)
            .broadcast(
                new StreamObserver<>() {
                  @Override
                  public void onNext(BroadcastResponse value) {
                    refused.completeExceptionally(new AssertionError("answered " + value));
                  }

                  @Override
                  public void onError(Throwable t) {
                    refused.complete(Status.fromThrowable(t));
                  }

                  @Override
                  public void onCompleted() {
                    refused.completeExceptionally(new AssertionError("completed"));
                  }
                });
    requests.onNext(
        Envelope.newBuilder()
            .setPayload(ByteString.copyFrom(new byte[GrpcListener.MAX_ORDERABLE_MESSAGE_BYTES]))
            .build());
    Status status = refused.get(60, TimeUnit.SECONDS);
    assertThat(status.getCode()).as(status.toString()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(envelopesTaken).hasValue(0);
  }

  @Test
  void oneConnectionGetsAtMostTheStreamCapAtOnce() throws Exception {
    List<StreamObserver<Envelope>> streams = new ArrayList<>();
    int opened = GrpcListener.MAX_CONCURRENT_STREAMS + 50;
    for (int i = 0; i < opened; i++) {
      StreamObserver<Envelope> requests =
          AtomicBroadcastGrpc.newStub(channel).deliver(new Ignored<>());
      requests.onNext(Envelope.getDefaultInstance());
      streams.add(requests);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (callsStarted.get() < GrpcListener.MAX_CONCURRENT_STREAMS
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    Thread.sleep(1_000);
    assertThat(callsStarted).hasValue(GrpcListener.MAX_CONCURRENT_STREAMS);
    streams.forEach(StreamObserver::onCompleted);
  }

  /** Counts the calls it starts and answers none of them. */
  private final class HoldsEveryCall extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {

    @Override
    public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responses) {
      callsStarted.incrementAndGet();
      return new Ignored<>();
    }

    @Override
    public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> responses) {
      return new Ignored<>() {
        @Override
        public void onNext(Envelope value) {
          envelopesTaken.incrementAndGet();
        }
      };
    }
  }

  private static class Ignored<T> implements StreamObserver<T> {
    @Override
    public void onNext(T value) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }
}
