package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.WalReplay;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.ledger.wal.Wal;
import io.rubinbft.ledger.wal.WalConfig;
import java.util.List;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's write-ahead log: bft-core's {@link WalRecord}s, encoded with the wire codec (a
 * block's proposal once per sequence: {@link ProposalSharingFormat}), in the ledger's segment
 * files. The host appends a step's records, syncs once for the whole batch, and only then lets
 * votes leave (bft-core's durability rule).
 *
 * <p>Truncation keeps everything recovery needs: the latest stable checkpoint record and the
 * decision it names, every record about a later sequence, and the latest view-change and new-view
 * records. With pipelining, a record about sequence 17 can precede the decision of 16 in the file,
 * so the cut is at the oldest record still needed, not at the checkpoint's own record. Nor does it
 * cut a decision the application has not yet applied (its block not yet in the ledger).
 */
public final class ConsensusLog implements AutoCloseable {

  /**
   * The log and the records found in it when it was opened, read again from its files on each
   * {@link WalReplay#forEach} (so recovery holds one record at a time, not the log), until the
   * first append.
   *
   * @param records the kept records, oldest first
   * @param empty whether the log held no record recovery replays
   */
  public record Opened(ConsensusLog log, WalReplay records, boolean empty) {}

  private static final Logger LOG = LoggerFactory.getLogger(ConsensusLog.class);

  private final Wal wal;
  private final WalRecordCodec codec;
  private ProposalSharingFormat format;
  private final LongSupplier firstUnappliedSequence;
  private final TreeMap<Long, Long> firstIndexBySequence = new TreeMap<>();
  private final TreeMap<Long, Long> decidedIndexBySequence = new TreeMap<>();
  private long stableSequence = -1;
  private long stableRecordIndex = -1;
  private long lastViewChangeIndex = -1;
  private long lastNewViewIndex = -1;
  private boolean appended;

  private ConsensusLog(Wal wal, WalRecordCodec codec, LongSupplier firstUnappliedSequence) {
    this.wal = wal;
    this.codec = codec;
    this.format = new ProposalSharingFormat(codec);
    this.firstUnappliedSequence = firstUnappliedSequence;
  }

  /**
   * Opens (or creates) the log and checks every record in it, keeping only what truncation needs
   * (indices, and the proposals of sequences not yet decided above the stable checkpoint); the
   * records themselves are read again by {@link Opened#records()}.
   *
   * @param firstUnappliedSequence the sequence of the first decision whose block is not yet in the
   *     ledger (for a channel from its genesis block: the ledger's height)
   * @throws IllegalStateException when a record that passed its CRC does not decode: this replica's
   *     own log is corrupt, and it must not vote from a log it cannot read
   */
  public static Opened open(
      WalConfig config, WalRecordCodec codec, LongSupplier firstUnappliedSequence) {
    ConsensusLog log = new ConsensusLog(Wal.open(config), codec, firstUnappliedSequence);
    long[] resolved = {0};
    // Checked once the stable checkpoint is known (its record may follow them): the cut of the
    // highest sequence and the cut decision of the highest sequence decide for all of them.
    ProposalSharingFormat.Cut[] highestCut = {null, null};
    try {
      log.read(
          (index, read) -> {
            switch (read) {
              case ProposalSharingFormat.Resolved r -> {
                log.track(index, r.keepFrom(), r.record());
                resolved[0]++;
              }
              case ProposalSharingFormat.Cut cut -> {
                highestCut[0] = higher(highestCut[0], cut);
                if (cut.stub() instanceof WalRecord.Decided) {
                  highestCut[1] = higher(highestCut[1], cut);
                }
              }
            }
          });
      for (ProposalSharingFormat.Cut cut : highestCut) {
        if (cut != null) {
          log.checkDroppable(cut);
        }
      }
    } catch (IllegalStateException e) {
      log.close();
      throw e;
    }
    WalReplay records =
        into ->
            log.read(
                (index, read) -> {
                  if (read instanceof ProposalSharingFormat.Resolved r) {
                    into.accept(r.record());
                  }
                });
    return new Opened(log, records, resolved[0] == 0);
  }

  private static ProposalSharingFormat.Cut higher(
      ProposalSharingFormat.Cut held, ProposalSharingFormat.Cut cut) {
    return held == null
            || ProposalSharingFormat.sequenceOf(cut) > ProposalSharingFormat.sequenceOf(held)
        ? cut
        : held;
  }

  /**
   * Decodes every kept record and hands it to {@code reader}, with a format of its own that then
   * becomes the log's: the proposals it remembers for sharing are then the very objects handed out,
   * which bft-core keeps and hands on (sharing compares by identity). Before the first append only:
   * appending changes what is kept and what the format remembers.
   */
  private void read(BiConsumer<Long, ProposalSharingFormat.Read> reader) {
    if (appended) {
      throw new IllegalStateException(
          "the consensus WAL's records are replayed before the first append");
    }
    ProposalSharingFormat replayed = new ProposalSharingFormat(codec);
    long firstIndex = wal.firstIndex();
    wal.replay(
        firstIndex,
        (index, payload) -> {
          ProposalSharingFormat.Read read = replayed.decode(index, payload, firstIndex);
          if (read instanceof ProposalSharingFormat.Resolved r
              && r.record() instanceof WalRecord.StableCheckpoint checkpoint) {
            replayed.stable(checkpoint.sequence());
          }
          reader.accept(index, read);
        });
    format = replayed;
  }

  /** Appends {@code records} in order; durable only after {@link #sync()}. */
  public void append(List<WalRecord> records) {
    appended = true;
    for (WalRecord record : records) {
      long index = wal.append(format.encode(record));
      if (record instanceof WalRecord.StableCheckpoint checkpoint) {
        format.stable(checkpoint.sequence());
      }
      track(index, format.written(index, record), record);
    }
  }

  /** Makes every appended record durable, then drops segments no longer needed. */
  public void sync() {
    wal.sync();
    long needed = oldestNeededIndex();
    if (needed > wal.firstIndex()) {
      wal.truncateBefore(needed);
    }
  }

  /** The index of the oldest record still kept; it moves up as stable checkpoints cut the log. */
  public long firstIndex() {
    return wal.firstIndex();
  }

  @Override
  public void close() {
    wal.close();
  }

  /**
   * A shared record whose Accepted record truncation cut must be one truncation was allowed to
   * drop. Truncation keeps every record above the stable checkpoint and the decision it names
   * whatever the ledger says: losing one of those is a broken log, refused. A decision below the
   * checkpoint is kept only while the ledger has not applied it, and the ledger's height can go
   * back after a power loss (a batch's blocks before its last are written unsynced): that decision
   * is gone as it would be in a log of plain records, and the replica catches up from its peers.
   */
  private void checkDroppable(ProposalSharingFormat.Cut cut) {
    long sequence = ProposalSharingFormat.sequenceOf(cut);
    boolean decided = cut.stub() instanceof WalRecord.Decided;
    String what =
        cut.stub().getClass().getSimpleName()
            + " record of sequence "
            + sequence
            + ": truncation cut record "
            + cut.acceptedIndex()
            + " (stable checkpoint "
            + stableSequence
            + ", first unapplied sequence "
            + firstUnappliedSequence.getAsLong()
            + ")";
    if (sequence > stableSequence || (decided && sequence == stableSequence)) {
      throw new IllegalStateException("consensus WAL lost the proposal of a " + what);
    }
    if (decided && sequence >= firstUnappliedSequence.getAsLong()) {
      LOG.warn("consensus WAL lost the proposal of an unapplied {}", what);
    }
  }

  /**
   * @param keepFrom the oldest record this one needs: itself, or the Accepted record whose proposal
   *     it shares
   */
  private void track(long index, long keepFrom, WalRecord record) {
    switch (record) {
      case WalRecord.Accepted accepted -> about(accepted.prePrepare().sequence(), index);
      case WalRecord.Prepared prepared -> about(prepared.certificate().sequence(), keepFrom);
      case WalRecord.Signed signed -> about(signed.commit().sequence(), index);
      case WalRecord.Decided decided -> {
        about(decided.decision().sequence(), keepFrom);
        // The oldest, should a sequence ever be decided twice: each Decided record must open.
        decidedIndexBySequence.merge(decided.decision().sequence(), keepFrom, Math::min);
      }
      case WalRecord.StableCheckpoint checkpoint -> stable(checkpoint.sequence(), index);
      case WalRecord.ViewChangeSent viewChange -> lastViewChangeIndex = index;
      case WalRecord.ViewInstalled newView -> lastNewViewIndex = index;
    }
  }

  private void about(long sequence, long index) {
    if (sequence > stableSequence) {
      firstIndexBySequence.putIfAbsent(sequence, index);
    }
  }

  private void stable(long sequence, long index) {
    if (sequence <= stableSequence) {
      return;
    }
    stableSequence = sequence;
    stableRecordIndex = index;
    firstIndexBySequence.headMap(sequence, true).clear();
  }

  private long oldestNeededIndex() {
    if (stableRecordIndex < 0) {
      return wal.firstIndex();
    }
    long needed = stableRecordIndex;
    long keepDecidedFrom = Math.min(stableSequence, firstUnappliedSequence.getAsLong());
    decidedIndexBySequence.headMap(keepDecidedFrom).clear();
    // Not the first decision's index: a shared decision needs its Accepted record, which with
    // pipelining can precede the (plain) decision of the sequence before it.
    for (long index : decidedIndexBySequence.values()) {
      needed = Math.min(needed, index);
    }
    for (long index : firstIndexBySequence.values()) {
      needed = Math.min(needed, index);
    }
    for (long index : new long[] {lastViewChangeIndex, lastNewViewIndex}) {
      if (index >= 0) {
        needed = Math.min(needed, index);
      }
    }
    return needed;
  }
}
