package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.WalBeyondWindowException;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ViewChange;
import org.jspecify.annotations.Nullable;

/** Replays write-ahead-log records into a fresh replica's state, producing no effects. */
final class Recovery {

  private final Context ctx;
  private final ViewChanges viewChanges;
  private long firstFree = 1;
  // The highest sequence of a vote replayed (accepted, prepared, signed) above what was delivered
  // then, and what it was; 0 when none.
  private long highestVote;
  private String highestVoteKind = "";
  // A view change sent and not yet followed by an installed view whose certificates reach beyond
  // the window above its own stable checkpoint; null when none.
  private @Nullable WalBeyondWindowException pendingViewChangeBeyond;

  Recovery(Context ctx, ViewChanges viewChanges) {
    this.ctx = ctx;
    this.viewChanges = viewChanges;
  }

  void replay(WalRecord record) {
    switch (record) {
      case WalRecord.Accepted accepted -> restoreAccepted(accepted);
      case WalRecord.Prepared prepared -> {
        long sequence = prepared.certificate().sequence();
        if (sequence > ctx.log.lastDelivered()) {
          ctx.log.slot(sequence).prepared = prepared.certificate();
          noteVote(sequence, "a prepared certificate");
        }
      }
      case WalRecord.Signed signed -> restoreSigned(signed.commit());
      case WalRecord.Decided decided -> {
        if (decided.decision().sequence() > ctx.log.lastDelivered()) {
          ctx.log.restore(decided.decision());
          ctx.pool.onDecided(decided.decision().proposal());
        }
      }
      case WalRecord.StableCheckpoint stable -> {
        if (stable.sequence() > ctx.low) {
          ctx.low = stable.sequence();
          ctx.lowDigest = stable.digest();
          ctx.lowProof = stable.proof();
          ctx.log.collectGarbage(stable.sequence());
        }
      }
      case WalRecord.ViewChangeSent sent -> {
        viewChanges.restore(sent.viewChange());
        pendingViewChangeBeyond = beyondWindow(sent.viewChange());
      }
      case WalRecord.ViewInstalled installed -> {
        viewChanges.restoreInstalled(installed.newView());
        firstFree = 1;
        pendingViewChangeBeyond = null;
      }
    }
  }

  /**
   * This replica's own commit, counted towards its own decisions only if its signature verifies in
   * its view. One that does not was written by a version whose commit signatures named no view (WAL
   * format 1, a commit in a view above 0): nobody can count it, so it is as if never signed, and
   * this replica signs the same prepared proposal again in that view (the same statement).
   */
  private void restoreSigned(Commit commit) {
    long sequence = commit.sequence();
    if (sequence <= ctx.log.lastDelivered()) {
      return;
    }
    noteVote(sequence, "a commit");
    Slot slot = ctx.log.slot(sequence);
    Proposal proposal = slot.proposalWith(commit.digest());
    if (proposal == null) {
      slot.ownCommit = commit;
      return;
    }
    if (ctx.services
        .signer()
        .verifyProposalSignature(ctx.self, commit.view(), proposal, commit.signature())) {
      slot.ownCommit = commit;
      Slot.keepNewest(slot.validCommits, commit);
    }
  }

  private void restoreAccepted(WalRecord.Accepted accepted) {
    PrePrepare prePrepare = accepted.prePrepare();
    if (prePrepare.view() != ctx.view || prePrepare.sequence() <= ctx.log.lastDelivered()) {
      return;
    }
    Slot slot = ctx.log.slot(prePrepare.sequence());
    slot.accepted = prePrepare;
    slot.ownPrepare = accepted.ownPrepare();
    if (slot.ownPrepare != null) {
      slot.prepares.put(ctx.self, slot.ownPrepare);
    }
    ctx.pool.markInFlight(prePrepare.proposal());
    firstFree = Math.max(firstFree, prePrepare.sequence() + 1);
    noteVote(prePrepare.sequence(), "an accepted pre-prepare");
  }

  private void noteVote(long sequence, String kind) {
    if (sequence > highestVote) {
      highestVote = sequence;
      highestVoteKind = kind;
    }
  }

  private @Nullable WalBeyondWindowException beyondWindow(ViewChange viewChange) {
    for (PreparedCertificate certificate : viewChange.prepared()) {
      if (certificate.sequence() > viewChange.stableSequence() + ctx.config.window()) {
        return new WalBeyondWindowException(
            "a view change naming a prepared certificate",
            certificate.sequence(),
            viewChange.stableSequence(),
            ctx.config.window());
      }
    }
    return null;
  }

  /**
   * After the last record: refuses a log written with a deeper window than this replica's, whose
   * undelivered votes (or the view change it would send again) reach beyond the window above the
   * stable checkpoint; {@link WalBeyondWindowException} says why such a replica must not run.
   */
  void requireWithinWindow() {
    if (highestVote > ctx.log.lastDelivered() && highestVote > ctx.highWatermark()) {
      throw new WalBeyondWindowException(
          highestVoteKind, highestVote, ctx.low, ctx.config.window());
    }
    if (pendingViewChangeBeyond != null) {
      throw pendingViewChangeBeyond;
    }
  }

  /** The first sequence the recovered primary has not proposed in its view. */
  long firstFreeSequence() {
    return firstFree;
  }
}
