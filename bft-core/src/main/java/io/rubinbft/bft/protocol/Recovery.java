package io.rubinbft.bft.protocol;

import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.PrePrepare;

/** Replays write-ahead-log records into a fresh replica's state, producing no effects. */
final class Recovery {

  private final Context ctx;
  private final ViewChanges viewChanges;
  private long firstFree = 1;

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
        }
      }
      case WalRecord.Signed signed -> {
        long sequence = signed.commit().sequence();
        if (sequence > ctx.log.lastDelivered()) {
          Slot slot = ctx.log.slot(sequence);
          slot.ownCommit = signed.commit();
          Slot.keepNewest(slot.validCommits, signed.commit());
        }
      }
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
      case WalRecord.ViewChangeSent sent -> viewChanges.restore(sent.viewChange());
      case WalRecord.ViewInstalled installed -> {
        viewChanges.restoreInstalled(installed.newView());
        firstFree = 1;
      }
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
  }

  /** The first sequence the recovered primary has not proposed in its view. */
  long firstFreeSequence() {
    return firstFree;
  }
}
