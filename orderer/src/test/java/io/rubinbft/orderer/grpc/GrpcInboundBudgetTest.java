package io.rubinbft.orderer.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.config.ConnectionLimits;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.testing.Keepalives;
import io.rubinbft.orderer.testing.SlowGrpcStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients sending large gRPC messages slowly (a hand-written HTTP/2 client that announces a message
 * and sends part of it) against the listener's inbound budget, with MaxRecvMsgSize at Fabric's 100
 * MB: a message over the largest AbsoluteMaxBytes plus the margin is refused as it arrives, long
 * before it is whole; messages in progress beyond the node's budget make the largest give way; and
 * an honest Broadcast on another connection is answered meanwhile.
 */
class GrpcInboundBudgetTest {

  private static final long MAX_RECV_MSG_SIZE = 100L << 20;

  private final List<SlowGrpcStream> slow = new ArrayList<>();
  private GrpcListener listener;
  private ManagedChannel honest;

  @AfterEach
  void stop() throws Exception {
    for (SlowGrpcStream stream : slow) {
      stream.close();
    }
    if (honest != null) {
      honest.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (listener != null) {
      listener.close();
    }
  }

  @Test
  void aMessageOverTheLargestAbsoluteMaxBytesIsRefusedAsItArrivesWhileHonestBroadcastsProceed()
      throws Exception {
    long absoluteMaxBytes = 512 << 10;
    listener =
        GrpcListener.start(
            new ListenerSettings(
                new HostPort("127.0.0.1", 0),
                TlsSettings.plaintext(),
                List::of,
                MAX_RECV_MSG_SIZE,
                Keepalives.FABRIC_DEFAULTS,
                ConnectionLimits.DEFAULTS,
                () -> absoluteMaxBytes),
            List.of(new AnswersEveryEnvelope()));
    honest = client();
    long max = absoluteMaxBytes + GrpcListener.MESSAGE_MARGIN_BYTES;

    // Announces 8 MB (under MaxRecvMsgSize and the transport's bound) and sends a little over max.
    SlowGrpcStream stream = slowStream(8 << 20);
    stream.send((int) max + (64 << 10), 10_000);
    assertThat(stream.endedWithin(5_000))
        .as("the stream ended by the node after %d bytes of 8 MB", max + (64 << 10))
        .isTrue();
    assertThat(broadcast(honest, 3_500).getCode()).isEqualTo(Status.Code.OK);

    Status tooLarge = broadcast(honest, (int) max + 1);
    assertThat(tooLarge.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(tooLarge.getDescription())
        .startsWith("grpc: received message larger than max (")
        .endsWith(" vs. " + max + ")");
    assertThat(listener.inboundRefusals().get("too_large")).isEqualTo(2L);
  }

  @Test
  void messagesInProgressBeyondTheNodesBudgetMakeTheLargestGiveWay() throws Exception {
    int message = 1_000_000;
    long connectionBudget = 2 << 20;
    long nodeBudget = 4 << 20;
    InboundMessageBudget budget =
        new InboundMessageBudget(
            () -> message + 1024,
            connectionBudget,
            nodeBudget,
            GrpcListener.MESSAGE_GRACE,
            GrpcListener.MIN_MESSAGE_BYTES_PER_SECOND);
    listener = listenerWith(budget);
    honest = client();
    int streams = 12;
    long mostHeld = 0;
    for (int i = 0; i < streams; i++) {
      SlowGrpcStream stream = slowStream(message);
      stream.send(900_000, 10_000);
      Thread.sleep(100);
      mostHeld = Math.max(mostHeld, budget.inProgressBytes());
    }
    int ended = 0;
    for (SlowGrpcStream stream : slow) {
      ended += stream.endedWithin(1_000) ? 1 : 0;
    }
    // 900 kB each: four fit the node's 4 MiB; each later one pushed out a larger one.
    assertThat(ended).as("streams the node ended").isGreaterThanOrEqualTo(streams - 4);
    assertThat(mostHeld).isLessThanOrEqualTo(nodeBudget);
    assertThat(listener.inboundRefusals().get("node_budget")).isGreaterThanOrEqualTo(streams - 4L);
    assertThat(broadcast(honest, 3_500).getCode()).isEqualTo(Status.Code.OK);
  }

  @Test
  void aSlowSenderHoldingTheBudgetIsCutOffAtItsDeadlineAndAnHonestLargerEnvelopeGetsIn()
      throws Exception {
    int message = 1_000_000;
    long nodeBudget = 2 << 20;
    // After a grace of 1 s a message must have come at 64 KiB/s at least on average.
    InboundMessageBudget budget = serving(message, nodeBudget, Duration.ofSeconds(1), 64 << 10);
    // Twenty streams of 100 kB each, then nothing: the node's whole budget held by small partial
    // messages, so an honest envelope larger than each of them is the largest and gives way.
    int streams = 20;
    for (int i = 0; i < streams; i++) {
      slowStream(message).send(100_000, 10_000);
    }
    Thread.sleep(200);
    assertThat(broadcast(honest, 600_000).getCode())
        .as("an honest 600 kB envelope while the slow sender holds the budget")
        .isEqualTo(Status.Code.RESOURCE_EXHAUSTED);

    // 1 s of grace plus 100 kB at 64 KiB/s: every slow message is overdue within 3 s.
    int ended = 0;
    for (SlowGrpcStream stream : slow) {
      ended += stream.endedWithin(6_000) ? 1 : 0;
    }
    assertThat(ended).as("slow streams the node cut off").isEqualTo(streams);
    assertThat(budget.inProgressBytes()).isZero();
    // The honest envelope's first bytes, smaller than 100 kB, pushed out a slow message or two.
    assertThat(listener.inboundRefusals().get("too_slow")).isGreaterThanOrEqualTo(streams - 3L);
    assertThat(broadcast(honest, 600_000).getCode()).isEqualTo(Status.Code.OK);
  }

  @Test
  void aSlowButSteadyLargeMessageOnANodeWithRoomToSpareIsNotCutOffAndIsAnswered() throws Exception {
    // Overdue after 0.5 s unless it comes at 256 KiB/s on average; it comes at about 160 KiB/s.
    InboundMessageBudget budget =
        new InboundMessageBudget(
            () -> 600 << 10, 2 << 20, 4 << 20, Duration.ofMillis(500), 256 << 10);
    listener = listenerWith(budget);
    byte[] envelope =
        Envelope.newBuilder()
            .setPayload(ByteString.copyFrom(new byte[480 << 10]))
            .build()
            .toByteArray();
    SlowGrpcStream stream =
        new SlowGrpcStream(
            new InetSocketAddress("127.0.0.1", listener.address().getPort()), envelope);
    slow.add(stream);
    int sent = 0;
    while (sent < envelope.length && !stream.endedWithin(0)) {
      sent += stream.send(16 << 10, 5_000);
      Thread.sleep(100);
    }
    assertThat(stream.answeredWithin(10_000))
        .as("the envelope answered after %d of %d bytes were sent", sent, envelope.length)
        .isTrue();
    assertThat(stream.endedWithin(0)).as("the stream ended by the node").isFalse();
    assertThat(listener.inboundRefusals().get("too_slow")).isZero();
    assertThat(budget.inProgressBytes()).isZero();
  }

  @Test
  void anOverdueMessageGivesWayToAMessageThatNeedsItsRoom() throws Exception {
    int message = 3_000_000;
    long nodeBudget = 4 << 20;
    // 1.5 MB is overdue after 0.5 s plus 1.5 MB at 4 MiB/s, under a second.
    InboundMessageBudget budget = serving(message, nodeBudget, Duration.ofMillis(500), 4 << 20);
    SlowGrpcStream stream = slowStream(message);
    stream.send(1_500_000, 10_000);
    // Under half the node's budget: overdue, but costing nobody, it is not cut off.
    assertThat(stream.endedWithin(2_500)).as("the overdue stream ended by the node").isFalse();
    assertThat(budget.inProgressBytes()).isEqualTo(1_500_000);

    // 1.5 MB + 2.9 MB do not fit 4 MiB: the overdue message gives way, not the honest one.
    assertThat(broadcast(honest, 2_900_000).getCode()).isEqualTo(Status.Code.OK);
    assertThat(stream.endedWithin(5_000)).as("the overdue stream ended by the node").isTrue();
    assertThat(listener.inboundRefusals())
        .containsEntry("too_slow", 1L)
        .containsEntry("node_budget", 0L);
  }

  @Test
  void messagesMadeToGiveWayAsTheyArriveEndTheirOwnStreamsNotTheirConnection() throws Exception {
    // Room for two 1 MB messages: four streams of one connection sending at once make the largest
    // in progress give way again and again, while its bytes keep arriving.
    InboundMessageBudget budget =
        new InboundMessageBudget(
            () -> 1_100_000,
            2_500_000,
            2_500_000,
            GrpcListener.MESSAGE_GRACE,
            GrpcListener.MIN_MESSAGE_BYTES_PER_SECOND);
    listener = listenerWith(budget);
    honest = client();
    Map<Status.Code, Integer> outcomes = new EnumMap<>(Status.Code.class);
    for (int round = 0; round < 40; round++) {
      List<CompletableFuture<Status>> calls = new ArrayList<>();
      for (int stream = 0; stream < 4; stream++) {
        calls.add(startBroadcast(honest, 1_000_000));
      }
      for (CompletableFuture<Status> call : calls) {
        outcomes.merge(call.get(30, TimeUnit.SECONDS).getCode(), 1, Integer::sum);
      }
    }
    // A connection failed whole (netty's "Stream N in unexpected state HALF_CLOSED_LOCAL" when a
    // stream is closed twice) ends every call on it with UNAVAILABLE.
    assertThat(outcomes.keySet())
        .as("outcomes of 160 calls: %s", outcomes)
        .containsOnly(Status.Code.OK, Status.Code.RESOURCE_EXHAUSTED)
        .contains(Status.Code.RESOURCE_EXHAUSTED);
  }

  /**
   * Starts {@link #listener} and {@link #honest} with a budget taking messages of {@code message}
   * bytes (plus 1 KiB), {@code nodeBudget} on a connection and on the node; returns the budget.
   */
  private InboundMessageBudget serving(
      int message, long nodeBudget, Duration grace, long minBytesPerSecond) throws IOException {
    InboundMessageBudget budget =
        new InboundMessageBudget(
            () -> message + 1024, nodeBudget, nodeBudget, grace, minBytesPerSecond);
    listener = listenerWith(budget);
    honest = client();
    return budget;
  }

  /**
   * A plain-text listener answering every envelope, its inbound bytes counted by {@code budget}.
   */
  private static GrpcListener listenerWith(InboundMessageBudget budget) throws IOException {
    return GrpcListener.start(
        ListenerSettings.of(
            new HostPort("127.0.0.1", 0),
            TlsSettings.plaintext(),
            MAX_RECV_MSG_SIZE,
            Keepalives.FABRIC_DEFAULTS),
        budget,
        List.of(new AnswersEveryEnvelope()));
  }

  private SlowGrpcStream slowStream(int messageBytes) throws IOException {
    SlowGrpcStream stream =
        new SlowGrpcStream(
            new InetSocketAddress("127.0.0.1", listener.address().getPort()), messageBytes);
    slow.add(stream);
    return stream;
  }

  private ManagedChannel client() {
    return Grpc.newChannelBuilderForAddress(
            "127.0.0.1", listener.address().getPort(), InsecureChannelCredentials.create())
        .build();
  }

  /** The status of a Broadcast of one envelope of {@code payloadBytes}: OK when answered. */
  private static Status broadcast(ManagedChannel channel, int payloadBytes) throws Exception {
    return startBroadcast(channel, payloadBytes).get(30, TimeUnit.SECONDS);
  }

  /** Starts a Broadcast of one envelope of {@code payloadBytes}; its status is OK when answered. */
  private static CompletableFuture<Status> startBroadcast(
      ManagedChannel channel, int payloadBytes) {
    CompletableFuture<Status> outcome = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(channel)
            .broadcast(
                new StreamObserver<>() {
                  @Override
                  public void onNext(BroadcastResponse value) {
                    outcome.complete(Status.OK);
                  }

                  @Override
                  public void onError(Throwable t) {
                    outcome.complete(Status.fromThrowable(t));
                  }

                  @Override
                  public void onCompleted() {
                    outcome.complete(Status.OK);
                  }
                });
    requests.onNext(
        Envelope.newBuilder().setPayload(ByteString.copyFrom(new byte[payloadBytes])).build());
    return outcome.whenComplete((status, failure) -> requests.onCompleted());
  }

  /** Answers SUCCESS to every envelope. */
  private static final class AnswersEveryEnvelope
      extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {

    @Override
    public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> responses) {
      return new StreamObserver<>() {
        @Override
        public void onNext(Envelope value) {
          responses.onNext(
              BroadcastResponse.newBuilder()
                  .setStatus(org.hyperledger.fabric.protos.common.Status.SUCCESS)
                  .build());
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          responses.onCompleted();
        }
      };
    }
  }
}
