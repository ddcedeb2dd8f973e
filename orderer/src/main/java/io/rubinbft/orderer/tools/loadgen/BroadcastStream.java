package io.rubinbft.orderer.tools.loadgen;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.jspecify.annotations.Nullable;

/**
 * One Broadcast stream to one orderer, pipelined ({@link SubmitMode#PIPELINED}): envelopes go out
 * back to back and responses, which Fabric sends in order, answer them first in, first out. Fabric
 * ends the stream after any non-SUCCESS answer, so an ended stream is reopened on the next submit.
 * Used by one submitter thread; the orderer's answers arrive on gRPC's network thread (direct
 * executor: no thread hand-off per answer) and take no lock that is held while calling gRPC.
 */
final class BroadcastStream {

  private final ManagedChannel channel;
  private @Nullable Call call;

  BroadcastStream(ManagedChannel channel) {
    this.channel = channel;
  }

  /**
   * Sends {@code envelope}; {@code answer} gets the orderer's answer, or why the stream gave none.
   */
  void submit(Envelope envelope, QuorumAnswer.OrdererAnswer answer) {
    if (call == null || call.ended) {
      call = new Call();
      call.requests =
          AtomicBroadcastGrpc.newStub(channel)
              .withExecutor(MoreExecutors.directExecutor())
              .broadcast(call);
    }
    call.send(envelope, answer);
  }

  /** The orderer's host:port, as reports name it. */
  String name() {
    return channel.authority();
  }

  void close() {
    if (call != null) {
      call.requests.onCompleted();
      call = null;
    }
  }

  /** One Broadcast call: its unanswered envelopes, oldest first. */
  private static final class Call implements StreamObserver<BroadcastResponse> {

    /**
     * Why an envelope pipelined behind a refused one got no answer: the orderer ended the stream
     * after the refusal without reading it.
     */
    private static final String ENDED = "stream ended before answering";

    private final Queue<QuorumAnswer.OrdererAnswer> pending = new ConcurrentLinkedQueue<>();
    private volatile boolean ended;

    @SuppressWarnings("NullAway.Init") // submit() sets it right after construction
    private StreamObserver<Envelope> requests;

    void send(Envelope envelope, QuorumAnswer.OrdererAnswer answer) {
      pending.add(answer);
      requests.onNext(envelope);
      if (ended) {
        failPending(ENDED); // the call ended before it could take this envelope
      }
    }

    @Override
    public void onNext(BroadcastResponse response) {
      Status status = response.getStatus();
      if (status != Status.SUCCESS) {
        ended = true; // Fabric ends the stream after this answer: the next submit opens another
      }
      QuorumAnswer.OrdererAnswer answer = pending.poll();
      if (answer != null) {
        answer.answer(QuorumAnswer.refusal(response));
      }
    }

    @Override
    public void onError(Throwable t) {
      ended = true;
      failPending("stream failed: " + io.grpc.Status.fromThrowable(t).getCode());
    }

    @Override
    public void onCompleted() {
      ended = true;
      failPending(ENDED);
    }

    private void failPending(String why) {
      for (QuorumAnswer.OrdererAnswer answer = pending.poll();
          answer != null;
          answer = pending.poll()) {
        answer.answer(why);
      }
    }
  }
}
