package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.List;
import java.util.Optional;

/**
 * One PBFT replica as a deterministic state machine: {@link #step} takes an event and returns the
 * effects the host must carry out (see {@link Effects} for the durability rule). Not thread-safe:
 * the host calls it from one thread.
 */
public final class Replica {

  private final Context ctx;
  private final MessageValidator validator;
  private final NormalCase normal;
  private final Checkpoints checkpoints;
  private final ViewChanges viewChanges;
  private final StateTransfer transfer;

  private Replica(ReplicaConfig config, ReplicaServices services) {
    ctx = new Context(config, services);
    validator = new MessageValidator(config, services.crypto(), services.signer());
    Delivery delivery = new Delivery(ctx);
    normal = new NormalCase(ctx, delivery);
    checkpoints = new Checkpoints(ctx);
    viewChanges = new ViewChanges(ctx, new NewViewCheck(config, validator));
    transfer = new StateTransfer(ctx, delivery, validator);
    delivery.listen(this::onDelivered);
    viewChanges.listen(this::onInstalled);
  }

  /** A fresh replica in view 0 with nothing decided. */
  public static Replica start(ReplicaConfig config, ReplicaServices services) {
    return new Replica(config, services);
  }

  /**
   * Rebuilds a replica from its write-ahead log after a crash: the records of every earlier step's
   * {@link Effects#persist()}, in order (possibly cut below a stable checkpoint, see {@link
   * WalRecord}). Pending client requests are not in the log; clients resend them.
   */
  public static Replica recover(
      ReplicaConfig config, ReplicaServices services, List<WalRecord> wal) {
    Replica replica = new Replica(config, services);
    Recovery recovery = new Recovery(replica.ctx, replica.viewChanges);
    wal.forEach(recovery::replay);
    replica.checkpoints.signDelivered();
    replica.normal.startView(recovery.firstFreeSequence());
    replica.ctx.out = new EffectsBuilder();
    return replica;
  }

  public Effects step(Event event) {
    ctx.out = new EffectsBuilder();
    switch (event) {
      case Event.ClientRequest request -> onRequest(request.request());
      case Event.Received received -> onMessage(received.from(), received.message());
      case Event.Tick tick -> onTick();
    }
    return ctx.out.build();
  }

  public ReplicaStatus status() {
    return new ReplicaStatus(
        ctx.view,
        ctx.viewInstalled,
        ctx.primary(ctx.view),
        ctx.log.lastDelivered(),
        ctx.low,
        ctx.highWatermark(),
        ctx.pool.size(),
        ctx.drops.counts());
  }

  private void onRequest(Request request) {
    Optional<String> reason =
        request.size() > ctx.config.requestMaxBytes()
            ? Optional.of(
                "request too large: "
                    + request.size()
                    + " bytes but at most "
                    + ctx.config.requestMaxBytes())
            : ctx.pool.admit(request, ctx.now);
    reason.ifPresent(why -> ctx.out.reject(new Rejection(request.id(), why)));
    normal.proposeReady();
  }

  private void onMessage(int from, Message message) {
    Optional<String> reason = validator.invalidReason(from, message);
    if (reason.isPresent()) {
      ctx.drops.drop(reason.get());
      return;
    }
    switch (message) {
      case PrePrepare prePrepare -> normal.onPrePrepare(prePrepare);
      case Prepare prepare -> normal.onPrepare(prepare);
      case Commit commit -> normal.onCommit(commit);
      case Checkpoint checkpoint -> checkpoints.onCheckpoint(checkpoint);
      case ViewChange viewChange -> viewChanges.onViewChange(viewChange);
      case NewView newView -> viewChanges.onNewView(newView);
      case Status status -> transfer.onStatus(status);
      case FetchDecisions fetch -> transfer.onFetch(fetch);
      case Decisions decisions -> transfer.onDecisions(decisions);
    }
    normal.proposeReady();
  }

  private void onTick() {
    ctx.now++;
    if (ctx.now % ctx.config.statusIntervalTicks() == 0) {
      normal.retransmit();
      checkpoints.retransmit();
      viewChanges.retransmit();
      transfer.announce();
    }
    viewChanges.onTick();
    normal.proposeReady();
  }

  private void onDelivered(Decision decision) {
    checkpoints.onDelivered(decision.sequence(), decision.digest());
    normal.signFrom(decision.sequence() + 1);
    if (decision.sequence() == ctx.viewFloor) {
      normal.acceptFirstWaiting();
    } else {
      normal.acceptWaitingFrom(decision.sequence() + 1);
    }
  }

  private void onInstalled(NewView newView, NewViewComputation.Result result) {
    checkpoints.adopt(result.low(), result.lowDigest(), result.lowProof());
    ctx.viewFloor = result.start();
    long firstFree = result.start() + 1;
    for (PrePrepare prePrepare : newView.reproposals()) {
      firstFree = prePrepare.sequence() + 1;
      if (prePrepare.sequence() > ctx.log.lastDelivered() && ctx.inWindow(prePrepare.sequence())) {
        normal.acceptReproposal(prePrepare);
      }
    }
    normal.startView(firstFree);
  }
}
