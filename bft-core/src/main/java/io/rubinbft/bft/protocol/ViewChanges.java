package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Complaint;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.ViewChange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * View changes (OSDI'99 section 4.4): a request waiting too long in a view makes its replica
 * complain; f + 1 complaints or view changes for higher views start one (a replica leaves its view
 * only when at least one correct replica wants to, so a replica cut off from the others stays in
 * their view instead of waiting alone in a view no quorum follows); a view change that does not
 * complete in time moves on to the next view with a doubled timeout; the new primary sends the new
 * view once it holds a quorum, and every replica recomputes it before installing it.
 */
final class ViewChanges {

  /** Told when a new view is installed, after the context is updated. */
  interface Listener {
    void installed(NewView newView, NewViewComputation.Result result);
  }

  private final Context ctx;
  private final NewViewCheck check;
  private final TreeMap<Integer, ViewChange> latest = new TreeMap<>();

  /** The view each replica last complained for (ours included); at or below ours: withdrawn. */
  private final TreeMap<Integer, Long> complaints = new TreeMap<>();

  private @Nullable Listener listener;
  private ProposalBodies.Lookup bodies = (sequence, digest) -> null;
  private @Nullable ViewChange own;
  private long deadline;
  private boolean armed;
  private int failedAttempts;

  ViewChanges(Context ctx, NewViewCheck check) {
    this.ctx = ctx;
    this.check = check;
  }

  void listen(Listener listener) {
    this.listener = listener;
  }

  /** Where a new primary finds the bodies its view changes name (its own after a restart). */
  void bodies(ProposalBodies.Lookup lookup) {
    this.bodies = lookup;
  }

  void onTick() {
    if (ctx.viewInstalled) {
      if (requestTimerExpired()) {
        complain(ctx.view + 1);
      } else if (complaining()) {
        // What we waited for was decided after all: withdraw, so the complaint cannot later join
        // another replica's to depose a primary that works.
        complaints.put(ctx.self, ctx.view);
        ctx.out.broadcastNow(new Complaint(ctx.view, ctx.self));
      }
    } else if (armed && ctx.now >= deadline) {
      start(ctx.view + 1);
    }
  }

  private boolean requestTimerExpired() {
    OptionalLong oldest = ctx.pool.oldestArrival();
    return oldest.isPresent()
        && ctx.now - Math.max(oldest.getAsLong(), ctx.viewStartTick)
            >= ctx.config.requestTimeoutTicks();
  }

  boolean complaining() {
    return complaints.getOrDefault(ctx.self, -1L) > ctx.view;
  }

  /** Our request timer expired: ask for {@code target}; leave the view once f + 1 ask. */
  private void complain(long target) {
    if (complaints.getOrDefault(ctx.self, -1L) >= target) {
      return;
    }
    complaints.put(ctx.self, target);
    ctx.out.broadcastNow(new Complaint(target, ctx.self));
    joinIfWeakQuorumAhead();
  }

  void onComplaint(Complaint complaint) {
    complaints.put(complaint.sender(), complaint.view());
    joinIfWeakQuorumAhead();
  }

  void start(long target) {
    leaveView(target);
    long delivered = ctx.log.lastDelivered();
    Decision lastDecision = delivered > ctx.low ? ctx.log.decision(delivered) : null;
    // Prepared certificates above the stable checkpoint, delivered ones included (OSDI'99 4.4).
    List<PreparedCertificate> prepared = new ArrayList<>();
    for (Slot slot : ctx.log.all()) {
      if (slot.prepared != null && slot.sequence > delivered && ctx.inWindow(slot.sequence)) {
        prepared.add(slot.prepared);
      }
    }
    for (PreparedCertificate certificate : ctx.log.deliveredCertificates()) {
      if (ctx.inWindow(certificate.sequence())) {
        prepared.add(certificate);
      }
    }
    prepared.sort(Comparator.comparingLong(PreparedCertificate::sequence));
    ViewChange unsigned =
        new ViewChange(
            target,
            ctx.low,
            ctx.lowDigest,
            ctx.lowProof,
            lastDecision,
            prepared,
            ctx.self,
            new byte[0]);
    own = unsigned.withSignature(ctx.sign(SignedBytes.viewChange(ctx.epoch, unsigned)));
    ctx.out.persist(new WalRecord.ViewChangeSent(own));
    ctx.out.broadcastDurable(own);
    latest.put(ctx.self, own);
    armIfQuorum();
    tryNewView();
  }

  /**
   * The view-change timer runs only once a quorum asks for the same view (TOCS'02 section 4.5.2): a
   * replica alone cannot race ahead of the others, so correct replicas meet in one view. Each
   * failed attempt doubles the timeout.
   */
  private void armIfQuorum() {
    if (armed || ctx.viewInstalled) {
      return;
    }
    long asking = latest.values().stream().filter(v -> v.newView() >= ctx.view).count();
    if (asking >= ctx.quorums.quorum()) {
      armed = true;
      int doublings = Math.min(failedAttempts++, ReplicaConfig.MAX_BACKOFF_DOUBLINGS);
      deadline = ctx.now + ((long) ctx.config.viewChangeTimeoutTicks() << doublings);
    }
  }

  /** Recovery: the replica had asked for {@code viewChange.newView()} before it crashed. */
  void restore(ViewChange viewChange) {
    leaveView(viewChange.newView());
    own = viewChange;
    latest.put(ctx.self, viewChange);
  }

  private void leaveView(long target) {
    ctx.view = target;
    armed = false;
    ctx.viewInstalled = false;
    for (Slot slot : ctx.log.all()) {
      slot.endView();
    }
    ctx.pool.resetInFlight();
  }

  void onViewChange(ViewChange viewChange) {
    long floor = ctx.viewInstalled ? ctx.view + 1 : ctx.view;
    if (viewChange.newView() < floor) {
      return;
    }
    ViewChange previous = latest.get(viewChange.sender());
    if (previous != null && previous.newView() >= viewChange.newView()) {
      return;
    }
    latest.put(viewChange.sender(), viewChange);
    joinIfWeakQuorumAhead();
    armIfQuorum();
    tryNewView();
  }

  /**
   * f + 1 replicas complain or ask for views above ours: at least one correct replica does, so
   * follow.
   */
  private void joinIfWeakQuorumAhead() {
    long current = ctx.view;
    TreeMap<Integer, Long> asks = new TreeMap<>(complaints);
    latest.values().forEach(v -> asks.merge(v.sender(), v.newView(), Math::max));
    List<Long> ahead =
        asks.values().stream()
            .filter(view -> view > current)
            .sorted(Comparator.reverseOrder())
            .toList();
    if (ahead.size() >= ctx.quorums.weakQuorum()) {
      start(ahead.get(ctx.quorums.weakQuorum() - 1));
    }
  }

  private void tryNewView() {
    if (ctx.viewInstalled || ctx.primary(ctx.view) != ctx.self) {
      return;
    }
    // Received view changes hold their bodies; this replica's own, restored from its WAL, names
    // them by digest and is completed from its log (if it cannot be, it does not count).
    List<ViewChange> forView =
        latest.values().stream()
            .filter(v -> v.newView() == ctx.view)
            .map(v -> ProposalBodies.filled(v, bodies))
            .filter(v -> ProposalBodies.missing(v).isEmpty())
            .limit(ctx.quorums.quorum())
            .toList();
    if (forView.size() < ctx.quorums.quorum()) {
      return;
    }
    NewViewComputation.Result result = NewViewComputation.compute(forView, ctx.config.window());
    List<PrePrepare> reproposals = new ArrayList<>();
    for (PreparedCertificate certificate : result.prefix()) {
      Digest digest = certificate.prePrepare().digest();
      byte[] vote = ctx.signVote(certificate.sequence(), digest);
      reproposals.add(
          new PrePrepare(
              ctx.view,
              certificate.sequence(),
              digest,
              certificate.prePrepare().proposal(),
              ctx.self,
              vote));
    }
    byte[] signature = ctx.sign(SignedBytes.newView(ctx.epoch, ctx.view, reproposals));
    NewView newView = new NewView(ctx.view, forView, reproposals, ctx.self, signature);
    ctx.out.broadcastDurable(newView);
    install(newView, result);
  }

  void onNewView(NewView newView) {
    boolean ahead = newView.view() > ctx.view || (newView.view() == ctx.view && !ctx.viewInstalled);
    if (!ahead) {
      return;
    }
    Optional<String> reason = check.invalidReason(newView);
    if (reason.isPresent()) {
      ctx.drops.drop(reason.get());
      return;
    }
    install(newView, NewViewComputation.compute(newView.viewChanges(), ctx.config.window()));
  }

  private void install(NewView newView, NewViewComputation.Result result) {
    if (ctx.viewInstalled || ctx.view != newView.view()) {
      leaveView(newView.view());
    }
    ctx.viewInstalled = true;
    ctx.viewStartTick = ctx.now;
    ctx.installedNewView = newView;
    failedAttempts = 0;
    ctx.out.persist(new WalRecord.ViewInstalled(newView));
    latest.values().removeIf(v -> v.newView() <= newView.view());
    own = null;
    Objects.requireNonNull(listener, "listen() first").installed(newView, result);
  }

  /** Recovery: the replica had installed this view before it crashed. */
  void restoreInstalled(NewView newView) {
    leaveView(newView.view());
    ctx.viewFloor = NewViewComputation.compute(newView.viewChanges(), ctx.config.window()).start();
    ctx.viewInstalled = true;
    ctx.installedNewView = newView;
    own = null;
  }

  /**
   * A body one of the view changes or the new view this replica holds names (a sender of a view
   * change or new view is asked for its bodies); null if none does or it is hollow here.
   */
  @Nullable Proposal bodyOf(long sequence, Digest digest) {
    List<ViewChange> held = new ArrayList<>(latest.values());
    if (own != null) {
      held.add(own);
    }
    if (ctx.installedNewView != null) {
      held.addAll(ctx.installedNewView.viewChanges());
      for (PrePrepare prePrepare : ctx.installedNewView.reproposals()) {
        if (matches(prePrepare, sequence, digest)) {
          return prePrepare.proposal();
        }
      }
    }
    for (ViewChange viewChange : held) {
      Decision decision = viewChange.lastDecision();
      if (decision != null
          && decision.sequence() == sequence
          && decision.digest().equals(digest)
          && !decision.proposal().isHollow()) {
        return decision.proposal();
      }
      for (PreparedCertificate certificate : viewChange.prepared()) {
        if (matches(certificate.prePrepare(), sequence, digest)) {
          return certificate.prePrepare().proposal();
        }
      }
    }
    return null;
  }

  private static boolean matches(PrePrepare prePrepare, long sequence, Digest digest) {
    return prePrepare.sequence() == sequence
        && prePrepare.digest().equals(digest)
        && !prePrepare.proposal().isHollow();
  }

  void retransmit() {
    if (!ctx.viewInstalled && own != null) {
      ctx.out.broadcastNow(own);
    } else if (ctx.viewInstalled && complaining()) {
      ctx.out.broadcastNow(
          new Complaint(Objects.requireNonNull(complaints.get(ctx.self)), ctx.self));
    }
  }
}
