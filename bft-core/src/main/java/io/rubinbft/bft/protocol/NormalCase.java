package io.rubinbft.bft.protocol;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The normal case (OSDI'99 section 4.2) with several proposals in flight: pre-prepare, prepare,
 * commit. A replica signs the commit for k in view v only once it prepared k in v and either
 * decided k - 1 or signed k - 1 <em>in v</em> with the digest k chains to (docs/ARCHITECTURE.md
 * "Safety rule that Fabric adds"; bft-core/README.md "Safety argument"). A commit signature covers
 * its view and a decision needs a quorum of commits of one view.
 */
final class NormalCase {

  private final Context ctx;
  private final Delivery delivery;

  /** Next sequence the primary proposes in this view. */
  private long nextProposal = 1;

  /** Tick of this primary's last cut in this view; none yet: long enough ago for any spacing. */
  private long lastCutTick = NEVER;

  private static final long NEVER = Long.MIN_VALUE / 2;

  NormalCase(Context ctx, Delivery delivery) {
    this.ctx = ctx;
    this.delivery = delivery;
  }

  void startView(long firstFree) {
    nextProposal = Math.max(firstFree, ctx.log.lastDelivered() + 1);
    lastCutTick = NEVER;
  }

  /**
   * The primary proposes while batches are ready and the window has room. A batch is ready when it
   * is full, when its oldest request has waited the batch timeout, or at once when nothing this
   * primary proposed is still undecided: batching only while busy gives a lone request the latency
   * of one agreement instead of the timeout, and under load the requests that arrive during an
   * agreement fill the next batch. A partial batch also waits until the cut spacing has passed
   * since this primary's previous cut ({@link io.rubinbft.bft.ReplicaConfig#cutSpacingTicks}), so a
   * steady trickle of requests makes fewer, larger batches, which is what a block's consumers pay
   * for per block; a primary that cut nothing for that long still cuts a lone request at once.
   */
  void proposeReady() {
    if (!ctx.viewInstalled || !ctx.isPrimary()) {
      return;
    }
    nextProposal = Math.max(nextProposal, ctx.log.lastDelivered() + 1);
    BatchPolicy configured =
        BatchPolicy.uniform(ctx.config.batchMaxCount(), ctx.config.batchMaxBytes());
    // Inside (h, h + L]: a replica may adopt a stable checkpoint h above what it delivered (a new
    // view's, or a quorum's), and must not propose at or below it.
    while (ctx.log.lastDelivered() >= ctx.viewFloor
        && ctx.inWindow(nextProposal)
        && ctx.chainDigest(nextProposal) != null
        && !ctx.followsEpochEnd(nextProposal)) {
      if (!ctx.pool.hasUnproposed()) {
        // Every tick and message of an idle primary comes here: the application's policy (for
        // Fabric: the config in force after the previous block) is not worth asking for nothing.
        return;
      }
      Proposal previous = ctx.previousProposal(nextProposal);
      BatchPolicy policy = ctx.services.assembler().batchPolicy(previous, configured);
      if (!cutDue(policy) || !roomForABatch()) {
        return;
      }
      List<Request> batch = ctx.pool.nextBatch(policy);
      if (batch.isEmpty()) {
        // Every request at the head was dropped: look again at what is left.
        continue;
      }
      lastCutTick = ctx.now;
      long sequence = nextProposal++;
      byte[] payload = ctx.services.assembler().assemble(sequence, batch, previous);
      Proposal proposal =
          new Proposal(sequence, Objects.requireNonNull(ctx.chainDigest(sequence)), batch, payload);
      Digest digest = ctx.digest(proposal);
      byte[] vote = ctx.signVote(sequence, digest);
      PrePrepare prePrepare = new PrePrepare(ctx.view, sequence, digest, proposal, ctx.self, vote);
      accept(prePrepare);
      ctx.out.broadcastDurable(prePrepare);
      afterAccept(sequence);
    }
  }

  /**
   * A full batch is cut at once; a partial one only once the spacing since the previous cut has
   * passed and its oldest request has waited {@link #batchWaitTicks()}.
   */
  private boolean cutDue(BatchPolicy policy) {
    if (ctx.pool.holdsFullBatch(policy)) {
      return true;
    }
    return ctx.now - lastCutTick >= ctx.config.cutSpacingTicks()
        && ctx.pool.oldestWaited(ctx.now, batchWaitTicks());
  }

  /**
   * Whether the proposals above h and a full batch fit the window's bytes (W). Counted from h, as a
   * backup at h counts; a backup one checkpoint behind holds one checkpoint interval more (less
   * than W), which its budget allows (2W). The next checkpoint falls where the proposals since h
   * reach W less a full batch, so a primary always reaches it.
   */
  private boolean roomForABatch() {
    return ctx.chainBytes(nextProposal - 1) + ctx.config.batchMaxBytes()
        <= ctx.config.windowBytes();
  }

  /** How long the oldest pending request waits for a fuller batch: not at all when idle. */
  private int batchWaitTicks() {
    boolean nothingInFlight = nextProposal == ctx.log.lastDelivered() + 1;
    return nothingInFlight ? 0 : ctx.config.batchTimeoutTicks();
  }

  void onPrePrepare(PrePrepare prePrepare) {
    long sequence = prePrepare.sequence();
    if (!ctx.viewInstalled || prePrepare.view() != ctx.view) {
      ctx.drops.drop("other view: pre-prepare for view " + prePrepare.view());
      return;
    }
    if (sequence <= ctx.log.lastDelivered()) {
      return;
    }
    if (!ctx.inWindow(sequence)) {
      ctx.drops.drop(
          "outside window: pre-prepare at " + sequence + " beyond " + ctx.highWatermark());
      return;
    }
    Slot slot = ctx.log.slot(sequence);
    PrePrepare known = slot.accepted != null ? slot.accepted : slot.waiting;
    if (known != null) {
      if (!known.digest().equals(prePrepare.digest())) {
        ctx.drops.drop("equivocation: second pre-prepare at " + sequence + " in " + ctx.view);
      }
      return;
    }
    long held = ctx.heldBytes();
    if (held + prePrepare.proposal().requestBytes() > ctx.config.backupWindowBytes()) {
      ctx.drops.drop(
          "over window bytes: pre-prepare at "
              + sequence
              + " with "
              + prePrepare.proposal().requestBytes()
              + " request bytes beside "
              + held
              + " held");
      return;
    }
    slot.waiting = prePrepare;
    acceptWaitingFrom(sequence);
  }

  /** Accepts waiting pre-prepares from {@code sequence} on while their predecessors are known. */
  void acceptWaitingFrom(long sequence) {
    for (long next = sequence; ctx.inWindow(next); next++) {
      Slot slot = ctx.log.existing(next);
      if (slot == null || slot.waiting == null || !acceptWaiting(slot)) {
        return;
      }
    }
  }

  /** Once the view's floor is delivered, the first waiting pre-prepare may be acceptable. */
  void acceptFirstWaiting() {
    for (long next = ctx.log.lastDelivered() + 1; ctx.inWindow(next); next++) {
      Slot slot = ctx.log.existing(next);
      if (slot != null && slot.waiting != null) {
        acceptWaitingFrom(next);
        return;
      }
    }
  }

  private boolean acceptWaiting(Slot slot) {
    Digest chain = ctx.chainDigest(slot.sequence);
    if (chain == null || ctx.log.lastDelivered() < ctx.viewFloor) {
      return false;
    }
    PrePrepare prePrepare = Objects.requireNonNull(slot.waiting);
    slot.waiting = null;
    Optional<String> reason = acceptReason(prePrepare, chain);
    if (reason.isPresent()) {
      ctx.drops.drop(reason.get());
      return false;
    }
    Prepare prepare =
        new Prepare(
            ctx.view,
            slot.sequence,
            prePrepare.digest(),
            ctx.self,
            ctx.signVote(slot.sequence, prePrepare.digest()));
    slot.ownPrepare = prepare;
    slot.prepares.put(ctx.self, prepare);
    accept(prePrepare);
    ctx.out.broadcastDurable(prepare);
    afterAccept(slot.sequence);
    return true;
  }

  private Optional<String> acceptReason(PrePrepare prePrepare, Digest chain) {
    Proposal proposal = prePrepare.proposal();
    if (!proposal.previous().equals(chain)) {
      return Optional.of(
          "broken chain: proposal at "
              + proposal.sequence()
              + " chains to "
              + proposal.previous()
              + " but the previous proposal is "
              + chain);
    }
    if (ctx.followsEpochEnd(proposal.sequence())) {
      return Optional.of(
          "epoch ended: proposal at "
              + proposal.sequence()
              + " follows the epoch's last proposal at "
              + (proposal.sequence() - 1));
    }
    Optional<String> duplicate = ctx.pool.duplicateReason(proposal);
    if (duplicate.isPresent()) {
      return duplicate;
    }
    return ctx.services
        .verifier()
        .invalidReason(proposal, ctx.previousProposal(proposal.sequence()))
        .map(why -> "rejected proposal: " + why);
  }

  /** A new view re-proposes a certified proposal: accepted without the application's check. */
  void acceptReproposal(PrePrepare prePrepare) {
    Slot slot = ctx.log.slot(prePrepare.sequence());
    if (prePrepare.sender() != ctx.self) {
      slot.ownPrepare =
          new Prepare(
              ctx.view,
              prePrepare.sequence(),
              prePrepare.digest(),
              ctx.self,
              ctx.signVote(prePrepare.sequence(), prePrepare.digest()));
      slot.prepares.put(ctx.self, slot.ownPrepare);
      ctx.out.broadcastDurable(slot.ownPrepare);
    }
    accept(prePrepare);
    afterAccept(prePrepare.sequence());
  }

  /** Records the accepted pre-prepare (and this replica's prepare, if a backup). */
  void accept(PrePrepare prePrepare) {
    Slot slot = ctx.log.slot(prePrepare.sequence());
    slot.accepted = prePrepare;
    ctx.pool.markInFlight(prePrepare.proposal());
    ctx.out.persist(new WalRecord.Accepted(prePrepare, slot.ownPrepare));
    verifyWaitingCommits(slot);
  }

  /** After a pre-prepare is accepted: its successor may now be acceptable, it may be prepared. */
  void afterAccept(long sequence) {
    checkPrepared(sequence);
    checkDecided(sequence);
    acceptWaitingFrom(sequence + 1);
  }

  /**
   * Whether {@link #onPrepare} would ignore this prepare whatever its signature: its sequence is
   * delivered, or its slot already prepared in the current view, which is the prepare's (a
   * certificate of a view stays once made; later prepares of that view add nothing to it).
   */
  boolean cannotCount(Prepare prepare) {
    long sequence = prepare.sequence();
    if (sequence < 1) {
      return false;
    }
    if (sequence <= ctx.log.lastDelivered()) {
      return true;
    }
    Slot slot = ctx.log.existing(sequence);
    return slot != null
        && ctx.viewInstalled
        && prepare.view() == ctx.view
        && slot.prepared != null
        && slot.prepared.view() == ctx.view;
  }

  void onPrepare(Prepare prepare) {
    if (!ctx.viewInstalled || prepare.view() != ctx.view) {
      ctx.drops.drop("other view: prepare for view " + prepare.view());
      return;
    }
    if (prepare.sequence() <= ctx.log.lastDelivered()) {
      return;
    }
    if (!ctx.inWindow(prepare.sequence())) {
      ctx.drops.drop("outside window: prepare at " + prepare.sequence());
      return;
    }
    ctx.log.slot(prepare.sequence()).prepares.put(prepare.sender(), prepare);
    checkPrepared(prepare.sequence());
  }

  private void checkPrepared(long sequence) {
    Slot slot = ctx.log.existing(sequence);
    if (slot == null || slot.accepted == null) {
      return;
    }
    if (slot.prepared != null && slot.prepared.view() == ctx.view) {
      return;
    }
    List<Prepare> matching =
        slot.prepares.values().stream()
            .filter(p -> p.view() == ctx.view && p.digest().equals(slot.accepted.digest()))
            .limit(ctx.quorums.quorum() - 1)
            .toList();
    if (matching.size() < ctx.quorums.quorum() - 1) {
      return;
    }
    slot.prepared = new PreparedCertificate(slot.accepted, matching);
    ctx.out.persist(new WalRecord.Prepared(slot.prepared));
    signFrom(sequence);
  }

  /** Signs commits in order from {@code sequence} while each is prepared and chains. */
  void signFrom(long sequence) {
    for (long next = sequence; ctx.inWindow(next) && canSign(next); next++) {
      // canSign: the slot exists and accepted a pre-prepare.
      Slot slot = Objects.requireNonNull(ctx.log.existing(next));
      PrePrepare accepted = Objects.requireNonNull(slot.accepted);
      Proposal proposal = accepted.proposal();
      byte[] signature = ctx.services.signer().signProposal(ctx.view, proposal);
      Commit commit = new Commit(ctx.view, next, accepted.digest(), ctx.self, signature);
      slot.ownCommit = commit;
      Slot.keepNewest(slot.validCommits, commit);
      ctx.out.persist(new WalRecord.Signed(commit));
      ctx.out.broadcastDurable(commit);
      checkDecided(next);
    }
  }

  private boolean canSign(long sequence) {
    Slot slot = ctx.log.existing(sequence);
    if (slot == null || slot.accepted == null || slot.prepared == null) {
      return false;
    }
    if (slot.prepared.view() != ctx.view || !ctx.viewInstalled) {
      return false;
    }
    if (slot.ownCommit != null && slot.ownCommit.view() == ctx.view) {
      // One commit per sequence and view: never two digests at one sequence in one view.
      return false;
    }
    return slot.accepted.proposal().previous().equals(signedDigest(sequence - 1));
  }

  /**
   * The digest this replica decided at {@code sequence}, or signed there in the current view; null
   * otherwise. A commit of an earlier view does not count: if this replica signed k in view v after
   * signing k - 1 in an earlier view only, a quorum could decide k in v while nothing of k - 1 is
   * prepared in v, and a later new view, finding a better certificate at k - 1 that k does not
   * chain to, would stop its re-proposals before k and let another proposal be decided there.
   */
  private @Nullable Digest signedDigest(long sequence) {
    if (sequence <= ctx.log.lastDelivered()) {
      return sequence == ctx.low ? ctx.lowDigest : ctx.log.decidedDigest(sequence);
    }
    Slot slot = ctx.log.existing(sequence);
    return slot == null || slot.ownCommit == null || slot.ownCommit.view() != ctx.view
        ? null
        : slot.ownCommit.digest();
  }

  void onCommit(Commit commit) {
    long sequence = commit.sequence();
    if (sequence <= ctx.log.lastDelivered()) {
      return;
    }
    if (!ctx.inWindow(sequence)) {
      ctx.drops.drop("outside window: commit at " + sequence);
      return;
    }
    Slot slot = ctx.log.slot(sequence);
    Proposal proposal = slot.proposalWith(commit.digest());
    if (proposal == null) {
      Slot.keepNewest(slot.unverifiedCommits, commit);
      return;
    }
    verifyCommit(slot, commit, proposal);
    checkDecided(sequence);
  }

  private void verifyWaitingCommits(Slot slot) {
    for (Commit commit : List.copyOf(slot.unverifiedCommits.values())) {
      Proposal proposal = slot.proposalWith(commit.digest());
      if (proposal != null) {
        slot.unverifiedCommits.remove(commit.sender());
        verifyCommit(slot, commit, proposal);
      }
    }
  }

  private void verifyCommit(Slot slot, Commit commit, Proposal proposal) {
    if (ctx.services
        .signer()
        .verifyProposalSignature(commit.sender(), commit.view(), proposal, commit.signature())) {
      Slot.keepNewest(slot.validCommits, commit);
    } else {
      ctx.drops.drop(
          "bad signature: commit of "
              + commit.sender()
              + " at "
              + slot.sequence
              + " in view "
              + commit.view());
    }
  }

  /**
   * Decides the slot once a quorum of valid commit signatures of one view covers one known proposal
   * (PBFT's committed-local: 2f + 1 matching commits of the same view).
   */
  void checkDecided(long sequence) {
    Slot slot = ctx.log.existing(sequence);
    if (slot == null) {
      return;
    }
    for (Digest digest : candidateDigests(slot)) {
      List<Commit> signers = slot.quorumOf(digest, ctx.quorums.quorum());
      if (!signers.isEmpty()) {
        delivery.decided(
            new Decision(
                // A candidate digest is the accepted or prepared one: its proposal is known.
                Objects.requireNonNull(slot.proposalWith(digest)),
                digest,
                signers.getFirst().view(),
                signers.stream().map(Delivery::signatureOf).toList()));
        return;
      }
    }
  }

  private static List<Digest> candidateDigests(Slot slot) {
    if (slot.accepted == null) {
      return slot.prepared == null ? List.of() : List.of(slot.prepared.prePrepare().digest());
    }
    if (slot.prepared == null
        || slot.prepared.prePrepare().digest().equals(slot.accepted.digest())) {
      return List.of(slot.accepted.digest());
    }
    return List.of(slot.accepted.digest(), slot.prepared.prePrepare().digest());
  }

  /** Re-sends this replica's votes for undecided sequences (lost messages are retried). */
  void retransmit() {
    for (Slot slot : ctx.log.all()) {
      if (slot.accepted != null && ctx.viewInstalled && slot.accepted.view() == ctx.view) {
        ctx.out.broadcastNow(slot.ownPrepare != null ? slot.ownPrepare : slot.accepted);
      }
      if (slot.ownCommit != null) {
        ctx.out.broadcastNow(slot.ownCommit);
      }
    }
    voteForDelivered();
  }

  /**
   * The installed new view may re-propose sequences this replica already delivered ({@link
   * NewViewComputation}): it votes for them in this view, a prepare (as a backup) and a commit
   * signature over its decided proposal, until the stable checkpoint passes them, so that replicas
   * that lack them reach a quorum even when no other holder of the decision helps. These votes
   * cannot conflict with anything (the re-proposal has the decided digest) and execute nothing
   * again, so they need no WAL record.
   */
  private void voteForDelivered() {
    if (!ctx.viewInstalled || ctx.installedNewView == null) {
      return;
    }
    for (PrePrepare reproposal : ctx.installedNewView.reproposals()) {
      long sequence = reproposal.sequence();
      Digest digest = reproposal.digest();
      Decision decision = ctx.inWindow(sequence) ? ctx.log.decision(sequence) : null;
      if (decision == null || !decision.digest().equals(digest)) {
        continue;
      }
      if (!ctx.isPrimary()) {
        ctx.out.broadcastNow(
            new Prepare(ctx.view, sequence, digest, ctx.self, ctx.signVote(sequence, digest)));
      }
      byte[] signature = ctx.services.signer().signProposal(ctx.view, decision.proposal());
      ctx.out.broadcastNow(new Commit(ctx.view, sequence, digest, ctx.self, signature));
    }
  }
}
