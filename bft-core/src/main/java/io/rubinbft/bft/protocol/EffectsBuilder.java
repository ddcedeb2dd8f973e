package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Message;
import java.util.ArrayList;
import java.util.List;

/** Collects one step's effects. */
final class EffectsBuilder {

  private final List<WalRecord> persist = new ArrayList<>();
  private final List<Outbound> afterPersist = new ArrayList<>();
  private final List<Outbound> now = new ArrayList<>();
  private final List<Decision> decisions = new ArrayList<>();
  private final List<Rejection> rejected = new ArrayList<>();

  void persist(WalRecord record) {
    persist.add(record);
  }

  /** A vote or statement whose record was persisted in this step: leaves after the WAL sync. */
  void broadcastDurable(Message message) {
    afterPersist.add(Outbound.toAll(message));
  }

  void broadcastNow(Message message) {
    now.add(Outbound.toAll(message));
  }

  void sendNow(int replica, Message message) {
    now.add(Outbound.toReplica(replica, message));
  }

  void decide(Decision decision) {
    decisions.add(decision);
  }

  void reject(Rejection rejection) {
    rejected.add(rejection);
  }

  Effects build() {
    if (persist.isEmpty()
        && afterPersist.isEmpty()
        && now.isEmpty()
        && decisions.isEmpty()
        && rejected.isEmpty()) {
      return Effects.NONE;
    }
    return new Effects(persist, afterPersist, now, decisions, rejected);
  }
}
