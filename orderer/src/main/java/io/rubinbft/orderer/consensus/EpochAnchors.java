package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.orderer.files.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The decision an epoch is anchored at, as a restarted member rebuilds it. Its proposal is block
 * {@code s} of the ledger, but its digest chains every earlier proposal digest back to the genesis,
 * which the ledger does not hold. So each epoch's WAL folder keeps an {@value #FILE} file with the
 * anchor's sequence, its predecessor's digest and its own digest, written when the epoch starts;
 * without one (a node that joined with a later config block, or one that crashed before writing it)
 * the chain is recomputed from block 1 on, a window of blocks at a time.
 */
public final class EpochAnchors {

  static final String FILE = "anchor";
  private static final int DIGEST_BYTES = 32;

  private record Recorded(Digest previous, Digest digest) {}

  private EpochAnchors() {}

  /** Writes {@code anchor}'s digests into {@code epochFolder}, durably, replacing any. */
  public static void write(Path epochFolder, Decision anchor) {
    ByteBuffer content = ByteBuffer.allocate(Long.BYTES + 2 * DIGEST_BYTES);
    content.putLong(anchor.sequence());
    content.put(anchor.proposal().previous().bytes()).put(anchor.digest().bytes());
    AtomicFiles.write(epochFolder.resolve(FILE), content.array());
  }

  /**
   * The decision at {@code sequence} rebuilt from the ledger {@code archive} reads, with the
   * digests from {@code epochFolder}'s anchor file when it has one for this sequence.
   *
   * @throws IllegalStateException when the rebuilt proposal's digest differs from the recorded one:
   *     the ledger and the WAL folder disagree, and this node must not vote on either
   */
  public static Decision read(Path epochFolder, long sequence, LedgerDecisionArchive archive) {
    Optional<Recorded> recorded = recorded(epochFolder.resolve(FILE), sequence);
    if (recorded.isEmpty()) {
      return chained(sequence, archive);
    }
    Decision anchor = at(sequence, recorded.get().previous(), archive);
    if (!anchor.digest().equals(recorded.get().digest())) {
      throw new IllegalStateException(
          "epoch anchor "
              + sequence
              + " rebuilt from the ledger has digest "
              + anchor.digest()
              + " but "
              + epochFolder.resolve(FILE)
              + " records "
              + recorded.get().digest());
    }
    return anchor;
  }

  private static Optional<Recorded> recorded(Path file, long sequence) {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      ByteBuffer content = ByteBuffer.wrap(Files.readAllBytes(file));
      if (content.remaining() != Long.BYTES + 2 * DIGEST_BYTES || content.getLong() != sequence) {
        return Optional.empty();
      }
      byte[] previous = new byte[DIGEST_BYTES];
      byte[] digest = new byte[DIGEST_BYTES];
      content.get(previous).get(digest);
      return Optional.of(new Recorded(new Digest(previous), new Digest(digest)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the epoch anchor " + file, e);
    }
  }

  /**
   * Chains the proposal digests of blocks 1..sequence from the genesis digest, an answer's worth of
   * blocks at a time (an answer may be cut short by its bytes: the next read goes on from where it
   * ends).
   */
  private static Decision chained(long sequence, LedgerDecisionArchive archive) {
    Digest previous = Digest.GENESIS;
    Decision last = null;
    long from = 1;
    while (from <= sequence) {
      int count = (int) Math.min(Decisions.MAX_COUNT, sequence - from + 1);
      List<Decision> answer =
          archive.decisions(new ArchiveRead(0, from, previous, count, Decisions.MAX_ANSWER_BYTES));
      if (answer.isEmpty()) {
        throw new IllegalStateException(
            "the ledger ends before block " + sequence + ", the epoch's config block");
      }
      last = answer.getLast();
      previous = last.digest();
      from += answer.size();
    }
    // Sequences start at 1: the loop read at least one decision.
    return Objects.requireNonNull(last);
  }

  private static Decision at(long sequence, Digest previous, LedgerDecisionArchive archive) {
    List<Decision> one =
        archive.decisions(new ArchiveRead(0, sequence, previous, 1, Decisions.MAX_ANSWER_BYTES));
    if (one.isEmpty()) {
      throw new IllegalStateException(
          "the ledger ends before block " + sequence + ", the epoch's config block");
    }
    return one.getFirst();
  }
}
