package io.rubinbft.orderer.tools.loadgen;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * Submits as Fabric's peer Gateway does for a BFT channel: each envelope to every orderer, each on
 * a fresh Broadcast stream (send, one answer, then the stream is cancelled), decided as soon as a
 * quorum took it or too many refused for a quorum to remain ({@link QuorumAnswer}, with Fabric's
 * success rule). Streams still unanswered at the decision run on to their answer, which is then
 * ignored, as the gateway ignores it, or until the broadcast timeout cancels them, as the gateway's
 * {@code peer.gateway.broadcastTimeout} does: a submit whose quorum has not answered by then fails.
 * Answers arrive on gRPC's network thread (direct executor).
 */
final class GatewaySubmitter implements Submitter {

  private final List<ManagedChannel> orderers;
  private final List<String> names;
  private final int quorum;
  private final long timeoutNanos;
  private final long broadcastTimeoutNanos;

  /** A submitter whose streams stay open, unanswered, for the whole {@code timeoutMillis}. */
  GatewaySubmitter(List<ManagedChannel> orderers, int quorum, long timeoutMillis) {
    this(orderers, quorum, timeoutMillis, timeoutMillis);
  }

  /**
   * @param timeoutMillis how long a submit waits for its decision
   * @param broadcastTimeoutMillis how long each orderer's stream may stay unanswered before it is
   *     cancelled and counts as a failure
   */
  GatewaySubmitter(
      List<ManagedChannel> orderers, int quorum, long timeoutMillis, long broadcastTimeoutMillis) {
    if (quorum < 1 || quorum > orderers.size()) {
      throw new IllegalArgumentException(
          "quorum is " + quorum + " but there are " + orderers.size() + " orderers");
    }
    this.orderers = orderers;
    this.names = orderers.stream().map(ManagedChannel::authority).toList();
    this.quorum = quorum;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    this.broadcastTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(broadcastTimeoutMillis);
  }

  @Override
  public QuorumSubmitter.Outcome submit(Envelope envelope) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutNanos;
    QuorumAnswer answer = new QuorumAnswer(quorum, names);
    for (int i = 0; i < orderers.size(); i++) {
      OneEnvelopeCall call = new OneEnvelopeCall(answer.from(i));
      AtomicBroadcastGrpc.newStub(orderers.get(i))
          .withExecutor(MoreExecutors.directExecutor())
          .withDeadlineAfter(broadcastTimeoutNanos, TimeUnit.NANOSECONDS)
          .broadcast(call)
          .onNext(envelope);
    }
    return answer.await(deadline);
  }

  /** Nothing outlives a submission: each stream ends with its answer. */
  @Override
  public void close() {}

  /** One Broadcast stream carrying one envelope: the first answer counts, then it is cancelled. */
  private static final class OneEnvelopeCall
      implements ClientResponseObserver<Envelope, BroadcastResponse> {

    private final QuorumAnswer.OrdererAnswer answer;

    @SuppressWarnings("NullAway.Init") // gRPC calls beforeStart before any response
    private ClientCallStreamObserver<Envelope> requests;

    private boolean answered;

    OneEnvelopeCall(QuorumAnswer.OrdererAnswer answer) {
      this.answer = answer;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<Envelope> requestStream) {
      this.requests = requestStream;
    }

    @Override
    public void onNext(BroadcastResponse response) {
      if (!answered) {
        answered = true;
        answer.answer(QuorumAnswer.refusal(response));
        requests.cancel("one answer per envelope, as Fabric's gateway reads", null);
      }
    }

    @Override
    public void onError(Throwable t) {
      if (!answered) {
        answered = true;
        answer.answer("stream failed: " + io.grpc.Status.fromThrowable(t).getCode());
      }
    }

    @Override
    public void onCompleted() {
      if (!answered) {
        answered = true;
        answer.answer("stream ended before answering");
      }
    }
  }
}
