package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Refusal;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.WalReplay;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Complaint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

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
  private final BodyFetches bodies;

  private Replica(ReplicaConfig config, ReplicaServices services, @Nullable Decision anchor) {
    Epoch epoch = anchor == null ? Epoch.GENESIS : Epoch.after(anchor);
    ctx = new Context(config, services, epoch, anchor == null ? null : anchor.proposal());
    validator = new MessageValidator(config, epoch, services.crypto(), services.signer());
    Delivery delivery = new Delivery(ctx);
    normal = new NormalCase(ctx, delivery);
    checkpoints = new Checkpoints(ctx);
    viewChanges = new ViewChanges(ctx, new NewViewCheck(config, validator));
    transfer = new StateTransfer(ctx, delivery, validator);
    bodies =
        new BodyFetches(
            ctx,
            (sequence, digest) -> {
              Proposal body = ctx.log.body(sequence, digest);
              return body != null ? body : viewChanges.bodyOf(sequence, digest);
            });
    viewChanges.bodies(bodies::body);
    delivery.listen(this::onDelivered);
    viewChanges.listen(this::onInstalled);
  }

  /** A replica of the genesis epoch: view 0, nothing decided. */
  public static Replica start(ReplicaConfig config, ReplicaServices services) {
    return new Replica(config, services, null);
  }

  /**
   * A replica of the epoch that starts after {@code anchor}, the previous epoch's last executed
   * decision at sequence s (its certificate belongs to that epoch and is not checked again). It
   * starts in view 0 with its stable checkpoint at s (no proof: every member starts from the same
   * anchor) and orders from s + 1 on, the proposal at s + 1 chaining to the anchor's. The
   * handover's requests are pending (subject to the pool limit, the request size limit and the
   * batch policy; the refused ones come back as rejections of the first step) and its decided ids
   * are remembered, so no request is ordered twice across the switch.
   */
  public static Replica start(
      ReplicaConfig config, ReplicaServices services, Decision anchor, Handover handover) {
    Replica replica = new Replica(config, services, requireAnchor(anchor));
    replica.ctx.pool.rememberDecided(handover.decided());
    handover.pending().forEach(replica::admit);
    return replica;
  }

  /**
   * Rebuilds a genesis-epoch replica from its write-ahead log after a crash: the records of every
   * earlier step's {@link Effects#persist()}, in order (possibly cut below a stable checkpoint, see
   * {@link WalRecord}). Pending client requests are not in the log; clients resend them.
   */
  public static Replica recover(ReplicaConfig config, ReplicaServices services, WalReplay wal) {
    return recover(new Replica(config, services, null), wal);
  }

  /**
   * Rebuilds a replica of the epoch that starts after {@code anchor} from its write-ahead log after
   * a crash inside that epoch. The log must hold only this epoch's records: the host keeps one log
   * per epoch and starts it empty at the switch (bft-core cannot tell another epoch's decisions
   * from this one's: their certificates are opaque to the epoch). The handover is what the host
   * still knows after the crash, as at {@link #start(ReplicaConfig, ReplicaServices, Decision,
   * Handover) start}: at least the ids of the requests it executed most recently (from its ledger),
   * since the old epoch's decided ids are not in this epoch's log.
   */
  public static Replica recover(
      ReplicaConfig config,
      ReplicaServices services,
      Decision anchor,
      Handover handover,
      WalReplay wal) {
    Replica replica = new Replica(config, services, requireAnchor(anchor));
    replica.ctx.pool.rememberDecided(handover.decided());
    recover(replica, wal);
    handover.pending().forEach(replica::admit);
    return replica;
  }

  private static Replica recover(Replica replica, WalReplay wal) {
    Recovery recovery = new Recovery(replica.ctx, replica.viewChanges);
    wal.forEach(recovery::replay);
    recovery.requireWithinWindow();
    replica.checkpoints.signDelivered();
    replica.normal.startView(recovery.firstFreeSequence());
    replica.ctx.out = new EffectsBuilder();
    return replica;
  }

  private static Decision requireAnchor(Decision anchor) {
    if (anchor == null) {
      throw new IllegalArgumentException(
          "an epoch's anchor is required; genesis has its own start");
    }
    return anchor;
  }

  public Effects step(Event event) {
    switch (event) {
      case Event.ClientRequest request -> onRequest(request.request());
      case Event.Received received -> onMessage(received.from(), received.message());
      case Event.Tick tick -> onTick();
    }
    Effects effects = ctx.out.build();
    ctx.out = new EffectsBuilder();
    return effects;
  }

  /**
   * What the next epoch's replica needs from this one when the host ends the epoch at {@code
   * anchor}, the sequence of the decision it just executed: the requests not executed (those of
   * this replica's decisions after the anchor, which nobody executes, then those in flight, then
   * the pending ones, each once, oldest first) and the ids decided up to the anchor.
   *
   * @throws IllegalArgumentException if this replica has not delivered {@code anchor}, or no longer
   *     retains the decisions after it
   */
  public Handover handover(long anchor) {
    return EpochHandover.of(ctx, anchor);
  }

  /**
   * The bytes of the requests pending in the pool ({@link Request#size}, summed), and their count:
   * a host bounds the memory of its pools with them.
   */
  public long poolBytes() {
    return ctx.pool.bytes();
  }

  public int poolSize() {
    return ctx.pool.size();
  }

  /** The parameters this replica runs with. */
  public ReplicaConfig config() {
    return ctx.config;
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
        ctx.drops.counts(),
        viewChanges.complaining());
  }

  private void onRequest(Request request) {
    admit(request);
    normal.proposeReady();
  }

  private void admit(Request request) {
    Optional<Refusal> reason =
        request.size() > ctx.config.requestMaxBytes()
            ? Optional.of(new Refusal.TooLarge(request.size(), ctx.config.requestMaxBytes()))
            : ctx.pool.admit(request, ctx.now);
    reason.ifPresent(why -> ctx.out.reject(new Rejection(request.id(), why)));
  }

  private void onMessage(int from, Message message) {
    switch (message) {
      case ViewChange m -> withBodies(from, m);
      case NewView m -> withBodies(from, m);
      case ProposalBody body -> {
        Optional<String> reason = validator.invalidReason(from, body);
        if (reason.isPresent()) {
          ctx.drops.drop(reason.get());
          return;
        }
        for (Message completed : bodies.onBody(body)) {
          dispatch(completed.sender(), completed);
        }
      }
      default -> dispatch(from, message);
    }
    normal.proposeReady();
  }

  /**
   * A view change or new view names its proposals by digest: checked as far as it can be without
   * them, then completed with the bodies (held or fetched, {@link BodyFetches}) before the whole
   * check and the protocol see it.
   */
  private void withBodies(int from, Message message) {
    Optional<String> reason = validator.hollowReason(from, message);
    if (reason.isPresent()) {
      ctx.drops.drop(reason.get());
      return;
    }
    bodies.complete(from, message).ifPresent(complete -> dispatch(from, complete));
  }

  private void dispatch(int from, Message message) {
    if (cannotCount(message)) {
      return;
    }
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
      case FetchProposal fetch -> bodies.onFetch(fetch);
      case ProposalBody body -> throw new IllegalStateException("bodies are taken in above");
      case Complaint complaint -> viewChanges.onComplaint(complaint);
    }
  }

  /**
   * A vote the protocol would ignore after checking it: a prepare for a delivered sequence or for a
   * slot already prepared in the prepare's view, a checkpoint at or below the stable one. Skipped
   * before its signature is checked, the costliest part of a step: with n = 4, one prepare in three
   * and one checkpoint in three arrive after their quorum. Only what the handlers ignore unchecked
   * anyway, so nothing that could change a decision, a certificate or a view is skipped; such a
   * message with a bad signature is no longer counted as a drop.
   */
  private boolean cannotCount(Message message) {
    return switch (message) {
      case Prepare prepare -> normal.cannotCount(prepare);
      case Checkpoint checkpoint -> checkpoints.cannotCount(checkpoint);
      default -> false;
    };
  }

  private void onTick() {
    ctx.now++;
    if (ctx.now % ctx.config.statusIntervalTicks() == 0) {
      normal.retransmit();
      checkpoints.retransmit();
      viewChanges.retransmit();
      transfer.announce();
    }
    transfer.serveWaitingReads();
    bodies.onTick();
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
