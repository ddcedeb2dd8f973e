package io.rubinbft.bft.protocol;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Status;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Catching up: replicas announce their status; a replica that sees a peer ahead fetches decisions
 * with their commit certificates from one peer at a time and checks each itself (digest, chain, a
 * quorum of valid signatures of one view), so one honest source suffices. An answer is cut by
 * bytes, not by the window ({@link Decisions.Budget}: up to {@link
 * io.rubinbft.bft.ReplicaConfig#answerMaxBytes} of decisions, at least one, at most {@link
 * Decisions#MAX_COUNT}), the same from memory as from the host's archive, and an answer that moved
 * this replica on is followed at once by the next fetch while a peer still claims to be ahead, so a
 * replica far behind streams decisions as fast as its sources answer, not a few answers per status
 * interval. The next fetch goes to the peer asked least recently, as every fetch does: sources take
 * turns, so none serves more than its share and a Byzantine source that answers slowly with one
 * valid decision at a time holds up only its turns.
 *
 * <p>A claimed height proves nothing (a {@code Status} is not signed), so sources rotate: each
 * fetch has a deadline of {@link #FETCH_DEADLINE_INTERVALS} status intervals, and a source that
 * delivers nothing valid by then, or sends anything invalid, is not asked again for {@link
 * #DISTRUST_INTERVALS} status intervals, doubling with each consecutive failure; among the peers
 * that claim to be ahead, the one asked least recently goes next. A peer that floods lying statuses
 * therefore costs one deadline per distrust period and never starves the fetches from the others.
 * Only an answer that delivered a valid decision leads to a fetch before the next status, so a peer
 * cannot make this replica fetch in a loop. A replica in an older view gets the current new-view
 * proof, at most once per status interval.
 *
 * <p>Decisions older than those a replica holds in memory come from its host's durable store
 * ({@link ArchiveRead}), so a replica any distance behind catches up. Storage reads are paced per
 * peer by bytes ({@link ArchiveReadBudget}): {@link #ARCHIVE_BYTES_PER_INTERVAL} per status
 * interval, each read charged the most an answer holds ({@code answerMaxBytes}), so a Byzantine
 * peer asking for old decisions without end costs bounded storage reads per interval. A fetch that
 * comes when its peer's budget is spent waits until the budget allows it instead of being dropped:
 * a dropped fetch would be a silent source to the replica behind, distrusted for 10 intervals and
 * more, though it is correct. A fetch waits at most a 32nd of an interval, well within its
 * deadline.
 */
final class StateTransfer {

  /** Status intervals a source has to deliver a valid decision. */
  static final int FETCH_DEADLINE_INTERVALS = 2;

  /** Status intervals a failed source is not asked, before doubling. */
  static final int DISTRUST_INTERVALS = 10;

  /** At most 2^this times {@link #DISTRUST_INTERVALS}. */
  private static final int MAX_DISTRUST_DOUBLINGS = 3;

  /**
   * Archive bytes one peer may have read per status interval: 32 answers of the largest size. An
   * honest replica behind asks its sources in turn, so it may read this from each of them per
   * interval.
   */
  static final long ARCHIVE_BYTES_PER_INTERVAL = 32 * Decisions.MAX_ANSWER_BYTES;

  private final Context ctx;
  private final Delivery delivery;
  private final MessageValidator validator;

  /** Per peer: the height it last claimed (one entry per replica, the latest claim). */
  private final Map<Integer, Long> claims = new HashMap<>();

  private final Map<Integer, Long> distrustedUntil = new HashMap<>();
  private final Map<Integer, Integer> consecutiveFailures = new HashMap<>();
  private final Map<Integer, Long> lastAsked = new HashMap<>();
  private final ArchiveReadBudget archiveBudget;

  /** Per peer: its latest fetch from the archive that came when its read budget was spent. */
  private final Map<Integer, FetchDecisions> waitingReads = new HashMap<>();

  private final Map<Integer, Long> newViewSentAt = new HashMap<>();
  private int source = -1;
  private long fetchDeadline;

  /** The first sequence the current fetch asked for. */
  private long askedFrom;

  StateTransfer(Context ctx, Delivery delivery, MessageValidator validator) {
    this.ctx = ctx;
    this.delivery = delivery;
    this.validator = validator;
    this.archiveBudget =
        new ArchiveReadBudget(ARCHIVE_BYTES_PER_INTERVAL, ctx.config.statusIntervalTicks());
  }

  void announce() {
    ctx.out.broadcastNow(
        new Status(ctx.view, ctx.viewInstalled, ctx.log.lastDelivered(), ctx.self));
    fetchIfBehind();
  }

  void onStatus(Status status) {
    boolean peerBehindInView =
        status.view() < ctx.view || (status.view() == ctx.view && !status.viewInstalled());
    if (peerBehindInView
        && ctx.viewInstalled
        && ctx.installedNewView != null
        && ctx.now >= newViewSentAt.getOrDefault(status.sender(), Long.MIN_VALUE)) {
      newViewSentAt.put(status.sender(), ctx.now + ctx.config.statusIntervalTicks());
      ctx.out.sendNow(status.sender(), ctx.installedNewView);
    }
    claims.put(status.sender(), status.lastDelivered());
    fetchIfBehind();
  }

  /**
   * Asks the next source unless a fetch is under way; a source whose deadline passed without a
   * valid decision is distrusted first.
   */
  private void fetchIfBehind() {
    if (source >= 0) {
      if (ctx.now < fetchDeadline) {
        return;
      }
      if (ctx.log.lastDelivered() < askedFrom) {
        failed(source);
      }
      source = -1;
    }
    long delivered = ctx.log.lastDelivered();
    int next = -1;
    for (Map.Entry<Integer, Long> claim : claims.entrySet()) {
      int peer = claim.getKey();
      if (claim.getValue() <= delivered
          || distrustedUntil.getOrDefault(peer, Long.MIN_VALUE) > ctx.now) {
        continue;
      }
      if (next < 0 || askedBefore(peer, next)) {
        next = peer;
      }
    }
    if (next < 0) {
      return;
    }
    source = next;
    askedFrom = delivered + 1;
    lastAsked.put(source, ctx.now);
    fetchDeadline = ctx.now + (long) FETCH_DEADLINE_INTERVALS * ctx.config.statusIntervalTicks();
    ctx.out.sendNow(
        source,
        new FetchDecisions(delivered + 1, ctx.log.lastDigest(), Decisions.MAX_COUNT, ctx.self));
  }

  /** Whether {@code peer} goes before {@code other}: asked less recently, then the lower index. */
  private boolean askedBefore(int peer, int other) {
    long a = lastAsked.getOrDefault(peer, Long.MIN_VALUE);
    long b = lastAsked.getOrDefault(other, Long.MIN_VALUE);
    return a != b ? a < b : peer < other;
  }

  /** {@code peer} delivered nothing valid in time, or something invalid: not asked for a while. */
  private void failed(int peer) {
    int failures = consecutiveFailures.merge(peer, 1, Integer::sum);
    long intervals = (long) DISTRUST_INTERVALS << Math.min(failures - 1, MAX_DISTRUST_DOUBLINGS);
    distrustedUntil.put(peer, ctx.now + intervals * ctx.config.statusIntervalTicks());
    if (peer == source) {
      source = -1;
    }
  }

  /**
   * Answers from memory, or, for decisions this replica no longer holds, asks the host to answer
   * from its durable store within the peer's read budget, as a storage read costs more than a
   * message and a Byzantine peer could ask for old decisions without end. A fetch that comes when
   * the budget is spent waits for it ({@link #serveWaitingReads}); a peer's newer fetch replaces
   * it, as a replica has one fetch under way at a time.
   */
  void onFetch(FetchDecisions fetch) {
    FetchDecisions replaced = waitingReads.remove(fetch.sender());
    if (replaced != null) {
      ctx.drops.drop("busy: archive read for " + fetch.sender() + " replaced by a newer fetch");
    }
    if (fetch.from() <= ctx.log.lastDelivered() && ctx.log.decision(fetch.from()) == null) {
      if (!archiveBudget.allows(fetch.sender(), ctx.config.answerMaxBytes(), ctx.now)) {
        waitingReads.put(fetch.sender(), fetch);
        return;
      }
      readArchive(fetch);
      return;
    }
    var decisions =
        ctx.log.decisionsFrom(fetch.from(), fetch.maxCount(), ctx.config.answerMaxBytes());
    if (!decisions.isEmpty()) {
      ctx.out.sendNow(fetch.sender(), new Decisions(decisions, ctx.self));
    }
  }

  /** Reads the archive for the waiting fetches whose peers' budget allows a read now. */
  void serveWaitingReads() {
    if (waitingReads.isEmpty()) {
      return;
    }
    var waiting = waitingReads.values().iterator();
    while (waiting.hasNext()) {
      FetchDecisions fetch = waiting.next();
      if (archiveBudget.allows(fetch.sender(), ctx.config.answerMaxBytes(), ctx.now)) {
        waiting.remove();
        // Still older than the decisions held in memory: those only move forward.
        readArchive(fetch);
      }
    }
  }

  /** Charged the most an answer holds: the host cuts what it reads there ({@link ArchiveRead}). */
  private void readArchive(FetchDecisions fetch) {
    archiveBudget.charge(fetch.sender(), ctx.config.answerMaxBytes(), ctx.now);
    ctx.out.readArchive(
        new ArchiveRead(
            fetch.sender(),
            fetch.from(),
            fetch.previous(),
            Math.min(fetch.maxCount(), Decisions.MAX_COUNT),
            ctx.config.answerMaxBytes()));
  }

  void onDecisions(Decisions answer) {
    if (answer.sender() != source) {
      ctx.drops.drop("unsolicited: decisions from " + answer.sender());
      return;
    }
    boolean progressed = false;
    for (Decision decision : answer.decisions()) {
      if (decision.proposal() == null) {
        ctx.drops.drop("bad decision: null proposal");
        failed(answer.sender());
        return;
      }
      if (decision.sequence() <= ctx.log.lastDelivered()) {
        continue;
      }
      Optional<String> reason = invalidReason(decision);
      if (reason.isPresent()) {
        ctx.drops.drop(reason.get());
        failed(answer.sender());
        return;
      }
      delivery.decided(decision);
      progressed = true;
    }
    source = -1;
    if (progressed) {
      consecutiveFailures.remove(answer.sender());
      fetchIfBehind();
    }
  }

  private Optional<String> invalidReason(Decision decision) {
    long expected = ctx.log.lastDelivered() + 1;
    if (decision.sequence() != expected) {
      return Optional.of(
          "bad decision: sequence is " + decision.sequence() + " but expected " + expected);
    }
    if (!decision.proposal().previous().equals(ctx.log.lastDigest())) {
      return Optional.of(
          "bad decision: " + expected + " does not chain to the decision at " + (expected - 1));
    }
    return validator.decisionReason(decision);
  }
}
