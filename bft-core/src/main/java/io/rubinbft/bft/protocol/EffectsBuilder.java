package io.rubinbft.bft.protocol;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Message;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Collects one step's effects; lists are created on first use, as most steps fill one or none. */
final class EffectsBuilder {

  private @Nullable List<WalRecord> persist;
  private @Nullable List<Outbound> afterPersist;
  private @Nullable List<Outbound> now;
  private @Nullable List<Decision> decisions;
  private @Nullable List<Rejection> rejected;
  private @Nullable List<ArchiveRead> archiveReads;

  void persist(WalRecord record) {
    persist = add(persist, record);
  }

  /** A vote or statement whose record was persisted in this step: leaves after the WAL sync. */
  void broadcastDurable(Message message) {
    afterPersist = add(afterPersist, Outbound.toAll(message));
  }

  void broadcastNow(Message message) {
    now = add(now, Outbound.toAll(message));
  }

  void sendNow(int replica, Message message) {
    now = add(now, Outbound.toReplica(replica, message));
  }

  void decide(Decision decision) {
    decisions = add(decisions, decision);
  }

  void reject(Rejection rejection) {
    rejected = add(rejected, rejection);
  }

  void readArchive(ArchiveRead read) {
    archiveReads = add(archiveReads, read);
  }

  Effects build() {
    if (persist == null
        && afterPersist == null
        && now == null
        && decisions == null
        && rejected == null
        && archiveReads == null) {
      return Effects.NONE;
    }
    return new Effects(
        orEmpty(persist),
        orEmpty(afterPersist),
        orEmpty(now),
        orEmpty(decisions),
        orEmpty(rejected),
        orEmpty(archiveReads));
  }

  private static <T> List<T> add(@Nullable List<T> list, T element) {
    List<T> target = list == null ? new ArrayList<>() : list;
    target.add(element);
    return target;
  }

  private static <T> List<T> orEmpty(@Nullable List<T> list) {
    return list == null ? List.of() : list;
  }
}
