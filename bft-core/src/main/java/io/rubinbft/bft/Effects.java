package io.rubinbft.bft;

import java.util.List;

/**
 * What the host must do after a step, in this order (docs/ARCHITECTURE.md principle 2):
 *
 * <ol>
 *   <li>send {@code sendNow} (they depend on nothing new being durable);
 *   <li>append {@code persist} to the write-ahead log and make it durable;
 *   <li>only then send {@code sendAfterPersist} and hand {@code decisions} to the application, in
 *       order.
 * </ol>
 *
 * {@code archiveReads} ask the host to answer a peer from its durable store of decided proposals;
 * they depend on nothing in this step and may be served at any time, off the replica's thread (see
 * {@link ArchiveRead}).
 *
 * <p>If the host crashes before step 2 completes, it must drop step 3: the replica's votes are
 * promises, and a promise that leaves before its record is durable can be broken after a restart.
 */
public record Effects(
    List<WalRecord> persist,
    List<Outbound> sendAfterPersist,
    List<Outbound> sendNow,
    List<Decision> decisions,
    List<Rejection> rejected,
    List<ArchiveRead> archiveReads) {

  public static final Effects NONE =
      new Effects(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());

  public Effects {
    persist = List.copyOf(persist);
    sendAfterPersist = List.copyOf(sendAfterPersist);
    sendNow = List.copyOf(sendNow);
    decisions = List.copyOf(decisions);
    rejected = List.copyOf(rejected);
    archiveReads = List.copyOf(archiveReads);
  }

  public boolean isEmpty() {
    return persist.isEmpty()
        && sendAfterPersist.isEmpty()
        && sendNow.isEmpty()
        && decisions.isEmpty()
        && rejected.isEmpty()
        && archiveReads.isEmpty();
  }
}
