package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.wire.Decoded;
import io.rubinbft.bft.wire.WalRecordCodec;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The consensus WAL's record format: bft-core's records, except that a block's proposal is written
 * once per sequence. bft-core persists the proposal three times per block (Accepted holds the
 * pre-prepare, Prepared its certificate with the same pre-prepare, Decided the decision with the
 * same proposal); a Prepared or Decided record whose proposal is the one of the latest Accepted
 * record of its sequence is written as a <em>shared</em> record: the Accepted record's index and
 * the record with an empty proposal in its place. That cuts the WAL's bytes per block by about two
 * thirds (what the write system call's copy cost: bench/journal/2026-11-21-16-node-cpu.md).
 *
 * <pre>
 *   plain record:  bft-core codec bytes (first byte: the codec's VERSION, 2; 1 in logs written
 *                  before decisions named their view, still read)
 *   shared record: 0xF1 | index of the Accepted record (8 bytes, big endian) | codec bytes of the
 *                  record with the proposal's requests and payload left out
 * </pre>
 *
 * <p>Logs written before this format hold plain records only and are read as before. A node of an
 * older version refuses a log with shared records at start ("consensus WAL record N does not
 * decode: ... version ..."): downgrading needs the channel's WAL directory emptied, after which the
 * node recovers the channel from its ledger and its peers.
 *
 * <p>Truncation must keep a shared record's Accepted record: {@link Resolved#keepFrom} names it. A
 * shared record whose Accepted record was cut ({@link Cut}) must be one truncation may drop (about
 * a sequence at or below the stable checkpoint and applied): {@link ConsensusLog} skips it on
 * replay and refuses to open when it is not.
 */
final class ProposalSharingFormat {

  /** Never a first byte of bft-core's records (its VERSION byte, 2, or 1 in older logs). */
  static final byte SHARED = (byte) 0xF1;

  private static final int SHARED_HEADER = 1 + Long.BYTES;
  private static final byte[] NO_PAYLOAD = new byte[0];

  /** What {@link #decode} read. */
  sealed interface Read {}

  /** A record as read or written, and the index of the oldest record it needs. */
  record Resolved(WalRecord record, long keepFrom) implements Read {}

  /**
   * A shared record whose Accepted record (at {@code acceptedIndex}) truncation cut: {@code stub}
   * is the record without its proposal's requests and payload, enough to tell its kind and
   * sequence.
   */
  record Cut(WalRecord stub, long acceptedIndex) implements Read {}

  private record AcceptedAt(long index, Proposal proposal) {}

  private final WalRecordCodec codec;

  /** The latest Accepted record of each sequence not yet decided, above the stable checkpoint. */
  private final TreeMap<Long, AcceptedAt> accepted = new TreeMap<>();

  ProposalSharingFormat(WalRecordCodec codec) {
    this.codec = codec;
  }

  /** The bytes of {@code record}, shared when its proposal is its sequence's accepted one. */
  byte[] encode(WalRecord record) {
    Optional<AcceptedAt> shared = sharedWith(record);
    if (shared.isEmpty()) {
      return codec.encode(record);
    }
    byte[] stub = codec.encode(withProposal(record, emptied(proposalOf(record).orElseThrow())));
    return ByteBuffer.allocate(SHARED_HEADER + stub.length)
        .put(SHARED)
        .putLong(shared.get().index())
        .put(stub)
        .array();
  }

  /**
   * Records {@code record}, just written at {@code index} as {@link #encode} made it, and returns
   * the index of the oldest record it needs.
   */
  long written(long index, WalRecord record) {
    long keepFrom = sharedWith(record).map(AcceptedAt::index).orElse(index);
    remember(index, record);
    return keepFrom;
  }

  /**
   * Reads the record at {@code index}; a {@link Cut} for a shared record whose Accepted record lies
   * below {@code firstIndex} (cut by truncation: the caller checks that recovery does not need it).
   *
   * @throws IllegalStateException when the bytes do not decode or name a record that is not there
   */
  Read decode(long index, byte[] payload, long firstIndex) {
    if (payload.length == 0 || payload[0] != SHARED) {
      WalRecord record = decoded(index, payload, 0);
      remember(index, record);
      return new Resolved(record, index);
    }
    if (payload.length < SHARED_HEADER) {
      throw new IllegalStateException(
          "consensus WAL record " + index + " is a shared record of " + payload.length + " bytes");
    }
    long acceptedIndex = ByteBuffer.wrap(payload, 1, Long.BYTES).getLong();
    WalRecord stub = decoded(index, payload, SHARED_HEADER);
    long sequence = proposalOf(stub).orElseThrow(() -> notShareable(index, stub)).sequence();
    AcceptedAt at = accepted.get(sequence);
    if (at == null || at.index() != acceptedIndex) {
      if (acceptedIndex < firstIndex) {
        return new Cut(stub, acceptedIndex);
      }
      throw new IllegalStateException(
          "consensus WAL record "
              + index
              + " shares the proposal of record "
              + acceptedIndex
              + ", which is not the latest accepted pre-prepare of sequence "
              + sequence);
    }
    WalRecord record = withProposal(stub, at.proposal());
    remember(index, record);
    return new Resolved(record, acceptedIndex);
  }

  /** Forgets the proposals of sequences at or below a stable checkpoint. */
  void stable(long sequence) {
    accepted.headMap(sequence, true).clear();
  }

  private Optional<AcceptedAt> sharedWith(WalRecord record) {
    return proposalOf(record)
        .flatMap(
            proposal ->
                Optional.ofNullable(accepted.get(proposal.sequence()))
                    // The same object: bft-core hands the accepted proposal on, never a copy.
                    .filter(at -> at.proposal() == proposal));
  }

  private void remember(long index, WalRecord record) {
    switch (record) {
      case WalRecord.Accepted a ->
          accepted.put(a.prePrepare().sequence(), new AcceptedAt(index, a.prePrepare().proposal()));
      case WalRecord.Decided d -> accepted.remove(d.decision().sequence());
      default -> {}
    }
  }

  private WalRecord decoded(long index, byte[] payload, int offset) {
    return switch (codec.decode(payload, offset, payload.length - offset)) {
      case Decoded.Valid<WalRecord> valid -> valid.value();
      case Decoded.Invalid<WalRecord> invalid ->
          throw new IllegalStateException(
              "consensus WAL record " + index + " does not decode: " + invalid.reason());
    };
  }

  private static IllegalStateException notShareable(long index, WalRecord record) {
    return new IllegalStateException(
        "consensus WAL record "
            + index
            + " is shared but a "
            + record.getClass().getSimpleName()
            + " record carries no proposal");
  }

  /** The sequence of a record that carries a proposal (Prepared or Decided). */
  static long sequenceOf(Cut cut) {
    return proposalOf(cut.stub()).orElseThrow().sequence();
  }

  private static Optional<Proposal> proposalOf(WalRecord record) {
    return switch (record) {
      case WalRecord.Prepared p -> Optional.of(p.certificate().prePrepare().proposal());
      case WalRecord.Decided d -> Optional.of(d.decision().proposal());
      default -> Optional.empty();
    };
  }

  private static Proposal emptied(Proposal proposal) {
    return new Proposal(proposal.sequence(), proposal.previous(), List.of(), NO_PAYLOAD);
  }

  private static WalRecord withProposal(WalRecord record, Proposal proposal) {
    return switch (record) {
      case WalRecord.Prepared p -> {
        PrePrepare pp = p.certificate().prePrepare();
        PrePrepare with =
            new PrePrepare(
                pp.view(), pp.sequence(), pp.digest(), proposal, pp.sender(), pp.signature());
        yield new WalRecord.Prepared(new PreparedCertificate(with, p.certificate().prepares()));
      }
      case WalRecord.Decided d ->
          new WalRecord.Decided(
              new Decision(
                  proposal,
                  d.decision().digest(),
                  d.decision().view(),
                  d.decision().certificate()));
      default ->
          throw new IllegalArgumentException(
              record.getClass().getSimpleName() + " records carry no proposal");
    };
  }
}
