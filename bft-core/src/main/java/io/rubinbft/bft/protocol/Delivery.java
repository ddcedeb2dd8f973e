package io.rubinbft.bft.protocol;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Commit;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Hands decisions to the application gap-free and in order, each recorded in the WAL first. */
final class Delivery {

  /** Told about each delivery, after the log and pool are updated. */
  interface Listener {
    void delivered(Decision decision);
  }

  private final Context ctx;
  private final Map<Long, Decision> ready = new HashMap<>();
  private @Nullable Listener listener;

  Delivery(Context ctx) {
    this.ctx = ctx;
  }

  void listen(Listener listener) {
    this.listener = listener;
  }

  void decided(Decision decision) {
    if (decision.sequence() <= ctx.log.lastDelivered()) {
      return;
    }
    ready.put(decision.sequence(), decision);
    Decision next;
    while ((next = ready.remove(ctx.log.lastDelivered() + 1)) != null) {
      ctx.out.persist(new WalRecord.Decided(next));
      ctx.out.decide(next);
      ctx.log.delivered(next);
      ctx.pool.onDecided(next.proposal());
      Objects.requireNonNull(listener, "listen() first").delivered(next);
    }
    ready.keySet().removeIf(sequence -> sequence <= ctx.log.lastDelivered());
  }

  static CommitSignature signatureOf(Commit commit) {
    return new CommitSignature(commit.sender(), commit.signature());
  }
}
