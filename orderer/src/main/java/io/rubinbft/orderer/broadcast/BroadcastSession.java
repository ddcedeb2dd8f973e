package io.rubinbft.orderer.broadcast;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.metrics.BroadcastMetrics;
import io.rubinbft.orderer.service.Channels;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.BroadcastResult;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.Verdict;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * One Broadcast stream. Each envelope is validated on the thread that delivers it and handed to its
 * channel, whose answer (a future: the replica's thread takes the envelope at its next step) is
 * sent by whichever thread completes it; the next envelope is read only after that answer, so
 * answers come in order and a stream holds at most one envelope. Nothing here waits for another
 * thread, so the listener may run the stream on its transport thread, unless Broadcast throttling
 * is on: {@link BroadcastThrottle.Turn} may sleep. A CONFIG_UPDATE, which the channel applies to
 * its config and signs while the caller waits, is handed to a virtual thread of its own.
 *
 * <p>Flow control: envelopes are requested one at a time, and the next only once the transport can
 * take another answer. A client that sends faster than we answer, or does not read its answers,
 * fills its own HTTP/2 window instead of our memory.
 *
 * <p>After any non-SUCCESS answer the stream ends (gRPC status OK), as Fabric's broadcast handler
 * does: the client opens a new stream. A client that half-closes while its envelope is being
 * answered gets the answer, then the end of the stream. gRPC runs the callbacks of one call one at
 * a time, but the answer comes from another thread: the stream's state is guarded by the session's
 * lock, held only while calling into the call's non-blocking methods.
 */
public final class BroadcastSession implements StreamObserver<Envelope> {

  /** The answer to nearly every envelope, built once. */
  private static final BroadcastResponse SUCCESS =
      BroadcastResponse.newBuilder().setStatus(Status.SUCCESS).build();

  /** Config updates wait for the config processor and the pool: a thread that may block. */
  private static final Executor CONFIG_UPDATES =
      task -> Thread.ofVirtual().name("broadcast-config-update").start(task);

  private final ServerCallStreamObserver<BroadcastResponse> responses;
  private final BroadcastValidator validator;
  private final Channels channels;
  private final BroadcastMetrics metrics;
  private final BroadcastThrottle.Turn turn;
  // Guarded by this: no more answers are sent.
  private boolean ended;
  // Guarded by this: an envelope was taken and its answer is not sent yet.
  private boolean answering;
  // Guarded by this: the client sends no more envelopes.
  private boolean halfClosed;
  // Guarded by this: the next envelope waits for the transport to take more answers.
  private boolean wantsNext;

  private BroadcastSession(
      ServerCallStreamObserver<BroadcastResponse> responses,
      BroadcastValidator validator,
      Channels channels,
      BroadcastMetrics metrics,
      BroadcastThrottle.Turn turn) {
    this.responses = responses;
    this.validator = validator;
    this.channels = channels;
    this.metrics = metrics;
    this.turn = turn;
  }

  /**
   * Starts serving a call; to be called from the service method itself.
   *
   * @param turn waits before each envelope is handled (Fabric's Broadcast throttling)
   */
  public static StreamObserver<Envelope> open(
      StreamObserver<BroadcastResponse> responseObserver,
      BroadcastValidator validator,
      Channels channels,
      BroadcastMetrics metrics,
      BroadcastThrottle.Turn turn) {
    var responses = (ServerCallStreamObserver<BroadcastResponse>) responseObserver;
    responses.disableAutoRequest();
    BroadcastSession session = new BroadcastSession(responses, validator, channels, metrics, turn);
    responses.setOnReadyHandler(session::onReady);
    responses.setOnCancelHandler(session::onCancel);
    responses.request(1);
    return session;
  }

  @Override
  public void onNext(Envelope envelope) {
    synchronized (this) {
      if (ended) {
        return;
      }
      answering = true;
    }
    try {
      turn.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      synchronized (this) {
        ended = true;
      }
      return;
    }
    answer(envelope).whenComplete(this::answered);
  }

  private synchronized void answered(BroadcastResponse response, Throwable failure) {
    answering = false;
    if (ended) {
      return;
    }
    if (failure != null) {
      // As an exception thrown by a handler ends its call.
      ended = true;
      responses.onError(
          io.grpc.Status.UNKNOWN.withDescription(failure.toString()).asRuntimeException());
      return;
    }
    responses.onNext(response);
    if (response.getStatus() != Status.SUCCESS || halfClosed) {
      ended = true;
      responses.onCompleted();
      return;
    }
    if (responses.isReady()) {
      responses.request(1);
    } else {
      wantsNext = true;
    }
  }

  @Override
  public synchronized void onError(Throwable t) {
    ended = true;
  }

  @Override
  public synchronized void onCompleted() {
    halfClosed = true;
    if (!ended && !answering) {
      ended = true;
      responses.onCompleted();
    }
  }

  private synchronized void onReady() {
    if (wantsNext && !ended) {
      wantsNext = false;
      responses.request(1);
    }
  }

  private synchronized void onCancel() {
    ended = true;
  }

  private CompletableFuture<BroadcastResponse> answer(Envelope envelope) {
    long started = System.nanoTime();
    BroadcastResult result = validator.validate(envelope);
    long validated = System.nanoTime();
    return switch (result) {
      case BroadcastResult.Rejected rejected -> {
        metrics.rejected(rejected.verdict().status(), validated - started);
        yield CompletableFuture.completedFuture(response(rejected.verdict()));
      }
      case BroadcastResult.Accepted accepted -> {
        String channelId = accepted.channelHeader().getChannelId();
        Optional<ServedChannel> channel = channels.channel(channelId);
        if (channel.isEmpty()) {
          // Removed since validation looked it up: the answer it would have given a moment later.
          yield CompletableFuture.completedFuture(
              response(new Verdict(Status.BAD_REQUEST, "channel does not exist")));
        }
        int type = accepted.channelHeader().getType();
        CompletableFuture<SubmitOutcome> outcome =
            type == HeaderType.CONFIG_UPDATE_VALUE
                ? CompletableFuture.supplyAsync(
                    () -> channel.get().submitConfigUpdate(envelope), CONFIG_UPDATES)
                : channel.get().submit(envelope, accepted.channelHeader().getTxId());
        yield outcome.thenApply(
            submitted -> {
              metrics.enqueued(
                  channelId,
                  type,
                  submitted.status(),
                  validated - started,
                  System.nanoTime() - validated);
              return response(new Verdict(submitted.status(), submitted.info()));
            });
      }
    };
  }

  private static BroadcastResponse response(Verdict verdict) {
    if (verdict.isSuccess() && verdict.info().isEmpty()) {
      return SUCCESS;
    }
    return BroadcastResponse.newBuilder()
        .setStatus(verdict.status())
        .setInfo(verdict.info())
        .build();
  }
}
