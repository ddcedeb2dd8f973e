package io.rubinbft.orderer.broadcast;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.metrics.BroadcastMetrics;
import io.rubinbft.orderer.service.Channels;
import io.rubinbft.orderer.service.PacedSession;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.BroadcastResult;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.Verdict;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * One Broadcast stream. Each envelope is validated and submitted on the call's own (virtual) thread
 * and answered before the next one is read, so answers come in order.
 *
 * <p>Flow control: envelopes are requested one at a time, and the next only once the transport can
 * take another answer. A client that sends faster than we answer, or does not read its answers,
 * fills its own HTTP/2 window instead of our memory.
 *
 * <p>After any non-SUCCESS answer the stream ends (gRPC status OK), as Fabric's broadcast handler
 * does: the client opens a new stream. gRPC runs the callbacks of one call one at a time, so this
 * class needs no locks.
 */
public final class BroadcastSession implements PacedSession<Envelope> {

  /** The answer to nearly every envelope, built once. */
  private static final BroadcastResponse SUCCESS =
      BroadcastResponse.newBuilder().setStatus(Status.SUCCESS).build();

  private final ServerCallStreamObserver<BroadcastResponse> responses;
  private final BroadcastValidator validator;
  private final Channels channels;
  private final BroadcastMetrics metrics;
  private final BroadcastThrottle.Turn turn;
  private boolean ended;
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
    return PacedSession.open(
        responseObserver,
        responses -> new BroadcastSession(responses, validator, channels, metrics, turn));
  }

  @Override
  public void onNext(Envelope envelope) {
    if (ended) {
      return;
    }
    try {
      turn.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ended = true;
      return;
    }
    BroadcastResponse response = answer(envelope);
    responses.onNext(response);
    if (response.getStatus() != Status.SUCCESS) {
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
  public void onError(Throwable t) {
    ended = true;
  }

  /**
   * The client's end of the stream takes a turn too: Fabric charges the throttle after every {@code
   * Recv}, the one that returns the end included, so a stream of one envelope costs two.
   */
  @Override
  public void onCompleted() {
    if (ended) {
      return;
    }
    ended = true;
    try {
      turn.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    responses.onCompleted();
  }

  @Override
  public void onReady() {
    if (wantsNext && !ended) {
      wantsNext = false;
      responses.request(1);
    }
  }

  @Override
  public void onCancel() {
    ended = true;
  }

  private BroadcastResponse answer(Envelope envelope) {
    long started = System.nanoTime();
    BroadcastResult result = validator.validate(envelope);
    long validated = System.nanoTime();
    return switch (result) {
      case BroadcastResult.Rejected rejected -> {
        metrics.rejected(rejected.verdict().status(), validated - started);
        yield response(rejected.verdict());
      }
      case BroadcastResult.Accepted accepted -> {
        String channelId = accepted.channelHeader().getChannelId();
        Optional<ServedChannel> channel = channels.channel(channelId);
        if (channel.isEmpty()) {
          // Removed since validation looked it up: the answer it would have given a moment later.
          yield response(new Verdict(Status.BAD_REQUEST, "channel does not exist"));
        }
        SubmitOutcome outcome =
            accepted.channelHeader().getType() == HeaderType.CONFIG_UPDATE_VALUE
                ? channel.get().submitConfigUpdate(envelope)
                : channel.get().submit(envelope, accepted.channelHeader().getTxId());
        metrics.enqueued(
            channelId,
            accepted.channelHeader().getType(),
            outcome.status(),
            validated - started,
            System.nanoTime() - validated);
        yield response(new Verdict(outcome.status(), outcome.info()));
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
