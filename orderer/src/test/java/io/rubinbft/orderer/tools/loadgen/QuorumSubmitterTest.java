package io.rubinbft.orderer.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.client.GrpcClients;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.testing.Keepalives;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Submissions to Broadcast services on loopback that answer as scripted: SUCCESS, a refusal after
 * which the stream ends (as Fabric's orderer does), or silence; on pipelined streams ({@link
 * QuorumSubmitter}) and as Fabric's gateway submits ({@link GatewaySubmitter}).
 */
class QuorumSubmitterTest {

  private static final Envelope ENVELOPE = Envelope.getDefaultInstance();
  private static final long TIMEOUT_MILLIS = 30_000;

  private final List<GrpcListener> servers = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  /** What one scripted orderer answers to every envelope, changeable between submissions. */
  private static final class Script {
    volatile Status answer;
    volatile String info = "";
    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger streams = new AtomicInteger();

    Script(Status answer) {
      this.answer = answer;
    }
  }

  @AfterEach
  void close() {
    channels.forEach(GrpcClients::close);
    servers.forEach(GrpcListener::close);
  }

  @Test
  void aQuorumOfSuccessIsAcceptedWithoutWaitingForASilentOrderer() throws Exception {
    QuorumSubmitter submitter =
        submitter(3, Status.SUCCESS, Status.SUCCESS, Status.SUCCESS, null).submitter();

    QuorumSubmitter.Outcome outcome = submitter.submit(ENVELOPE);

    assertThat(outcome.accepted()).isTrue();
    assertThat(outcome.refusals()).isEmpty();
    submitter.close();
  }

  @Test
  void refusalsBelowAQuorumAreCountedAndTheEndedStreamsReopened() throws Exception {
    Orderers orderers =
        submitter(3, Status.SUCCESS, Status.SUCCESS, Status.BAD_REQUEST, Status.BAD_REQUEST);

    QuorumSubmitter.Outcome refused = orderers.submitter().submit(ENVELOPE);
    orderers.scripts().get(2).answer = Status.SUCCESS;
    QuorumSubmitter.Outcome accepted = orderers.submitter().submit(ENVELOPE);

    assertThat(refused.accepted()).isFalse();
    assertThat(refused.refusals()).isEqualTo(Map.of("BAD_REQUEST", 2));
    assertThat(accepted.accepted()).as("the refusing orderers' streams ended").isTrue();
    assertThat(orderers.scripts().get(2).received).hasValue(2);
    orderers.submitter().close();
  }

  @Test
  void orderersSilentPastTheTimeoutCountAsTimeouts() throws Exception {
    QuorumSubmitter submitter =
        submitter(3, 200, Status.SUCCESS, Status.SUCCESS, null, null).submitter();

    QuorumSubmitter.Outcome outcome = submitter.submit(ENVELOPE);

    assertThat(outcome.accepted()).isFalse();
    // The silent two time out; on a loaded machine the others may not have answered in time either.
    assertThat(outcome.refusals()).containsOnlyKeys("timeout");
    assertThat(outcome.refusals().get("timeout")).isBetween(2, 4);
    assertThat(outcome.refusalsByOrderer())
        .containsEntry(channels.get(2).authority(), Map.of("timeout", 1))
        .containsEntry(channels.get(3).authority(), Map.of("timeout", 1));
    assertThat(outcome.answerNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    submitter.close();
  }

  @Test
  void refusalsAreCountedByStatusAndInfo() throws Exception {
    Orderers orderers =
        submitter(
            3, Status.SUCCESS, Status.SUCCESS, Status.SERVICE_UNAVAILABLE, Status.BAD_REQUEST);
    orderers.scripts().get(2).info = "failed to submit request: request already processed";

    QuorumSubmitter.Outcome outcome = orderers.submitter().submit(ENVELOPE);

    assertThat(outcome.accepted()).isFalse();
    assertThat(outcome.refusals())
        .isEqualTo(
            Map.of(
                "SERVICE_UNAVAILABLE: failed to submit request: request already processed",
                1,
                "BAD_REQUEST",
                1));
    assertThat(outcome.refusalsByOrderer())
        .isEqualTo(
            Map.of(
                channels.get(2).authority(),
                Map.of(
                    "SERVICE_UNAVAILABLE: failed to submit request: request already processed", 1),
                channels.get(3).authority(),
                Map.of("BAD_REQUEST", 1)));
    orderers.submitter().close();
  }

  @Test
  void manySubmissionsInFlightAreAnsweredInOrder() throws Exception {
    Orderers orderers =
        submitter(4, Status.SUCCESS, Status.SUCCESS, Status.SUCCESS, Status.SUCCESS);
    List<Thread> submitters = new ArrayList<>();
    AtomicInteger accepted = new AtomicInteger();
    for (int i = 0; i < 8; i++) {
      List<BroadcastStream> streams = channels.stream().map(BroadcastStream::new).toList();
      QuorumSubmitter own = new QuorumSubmitter(streams, 4, TIMEOUT_MILLIS);
      submitters.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      for (int k = 0; k < 50; k++) {
                        if (own.submit(ENVELOPE).accepted()) {
                          accepted.incrementAndGet();
                        }
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } finally {
                      own.close();
                    }
                  }));
    }
    for (Thread thread : submitters) {
      thread.join();
    }
    assertThat(accepted).hasValue(400);
    orderers.scripts().forEach(script -> assertThat(script.received).hasValue(400));
    orderers.submitter().close();
  }

  /** Fabric's gateway forgives exactly one refusal: SmartBFT's "request already exists". */
  @Test
  void requestAlreadyExistsCountsAsSuccessAndAlreadyProcessedDoesNot() throws Exception {
    Orderers orderers =
        submitter(
            3, Status.SUCCESS, Status.SUCCESS, Status.SERVICE_UNAVAILABLE, Status.BAD_REQUEST);
    orderers.scripts().get(2).info = "failed to submit request: request already exists";

    assertThat(orderers.gateway().submit(ENVELOPE).accepted()).isTrue();
    assertThat(orderers.submitter().submit(ENVELOPE).accepted()).isTrue();
    orderers.scripts().get(2).info = "failed to submit request: request already processed";
    assertThat(orderers.gateway().submit(ENVELOPE).accepted()).isFalse();
    orderers.submitter().close();
  }

  @Test
  void theGatewayModeOpensAFreshStreamForEachEnvelopeAndOrderer() throws Exception {
    Orderers orderers =
        submitter(4, Status.SUCCESS, Status.SUCCESS, Status.SUCCESS, Status.SUCCESS);

    for (int i = 0; i < 3; i++) {
      assertThat(orderers.gateway().submit(ENVELOPE).accepted()).isTrue();
    }

    for (Script script : orderers.scripts()) {
      assertThat(script.received).hasValue(3);
      assertThat(script.streams).hasValue(3);
    }
  }

  @Test
  void theGatewayModeFailsASubmitAsSoonAsNoQuorumCanTakeIt() throws Exception {
    Orderers orderers = submitter(3, Status.BAD_REQUEST, Status.SUCCESS, Status.BAD_REQUEST, null);

    QuorumSubmitter.Outcome outcome = orderers.gateway().submit(ENVELOPE);

    assertThat(outcome.accepted()).isFalse();
    assertThat(outcome.refusals()).isEqualTo(Map.of("BAD_REQUEST", 2));
    assertThat(outcome.refusalsByOrderer())
        .isEqualTo(
            Map.of(
                channels.get(0).authority(),
                Map.of("BAD_REQUEST", 1),
                channels.get(2).authority(),
                Map.of("BAD_REQUEST", 1)));
    assertThat(outcome.answerNanos()).isLessThan(TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS));
  }

  /**
   * As Fabric's gateway at its broadcastTimeout: streams still unanswered are cancelled and count
   * as failures, so the submit fails then, not at the submitter's own (longer) timeout.
   */
  @Test
  void theGatewayModeFailsASubmitWhoseQuorumHasNotAnsweredByTheBroadcastTimeout() throws Exception {
    submitter(3, Status.SUCCESS, Status.SUCCESS, null, null);
    GatewaySubmitter gateway = new GatewaySubmitter(channels, 3, TIMEOUT_MILLIS, 1_000);

    QuorumSubmitter.Outcome outcome = gateway.submit(ENVELOPE);

    assertThat(outcome.accepted()).isFalse();
    assertThat(outcome.refusals()).isEqualTo(Map.of("stream failed: DEADLINE_EXCEEDED", 2));
    assertThat(outcome.refusalsByOrderer())
        .containsOnlyKeys(channels.get(2).authority(), channels.get(3).authority());
    assertThat(outcome.answerNanos())
        .isBetween(
            TimeUnit.MILLISECONDS.toNanos(1_000),
            TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS / 2));
  }

  private record Orderers(
      QuorumSubmitter submitter, GatewaySubmitter gateway, List<Script> scripts) {}

  private Orderers submitter(int quorum, Status... answers) throws IOException {
    return submitter(quorum, TIMEOUT_MILLIS, answers);
  }

  /** One scripted orderer per answer; a null answer is an orderer that never answers. */
  private Orderers submitter(int quorum, long timeoutMillis, Status... answers) throws IOException {
    List<Script> scripts = new ArrayList<>();
    for (Status answer : answers) {
      Script script = new Script(answer);
      scripts.add(script);
      GrpcListener server =
          GrpcListener.start(
              ListenerSettings.of(
                  new HostPort("127.0.0.1", 0),
                  TlsSettings.plaintext(),
                  1 << 20,
                  Keepalives.FABRIC_DEFAULTS),
              List.of(broadcast(script)));
      servers.add(server);
      channels.add(
          GrpcClients.open(
              new HostPort("127.0.0.1", server.address().getPort()),
              InsecureChannelCredentials.create()));
    }
    List<BroadcastStream> streams = channels.stream().map(BroadcastStream::new).toList();
    return new Orderers(
        new QuorumSubmitter(streams, quorum, timeoutMillis),
        new GatewaySubmitter(channels, quorum, timeoutMillis),
        scripts);
  }

  private static AtomicBroadcastGrpc.AtomicBroadcastImplBase broadcast(Script script) {
    return new AtomicBroadcastGrpc.AtomicBroadcastImplBase() {
      @Override
      public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> responses) {
        script.streams.incrementAndGet();
        return new StreamObserver<>() {
          @Override
          public void onNext(Envelope envelope) {
            script.received.incrementAndGet();
            Status answer = script.answer;
            if (answer != null) {
              responses.onNext(
                  BroadcastResponse.newBuilder().setStatus(answer).setInfo(script.info).build());
              if (answer != Status.SUCCESS) {
                responses.onCompleted();
              }
            }
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {
            responses.onCompleted();
          }
        };
      }
    };
  }
}
