package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.ledger.wal.Wal;
import io.rubinbft.ledger.wal.WalConfig;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consensus WAL on disk: records come back as written (a block's proposal written once per
 * sequence, {@link ProposalSharingFormat}), truncation keeps every decision the ledger has not
 * applied with its proposal, and logs of the earlier format (plain records only) still open.
 */
class ConsensusLogTest {

  private static final HexFormat HEX = HexFormat.of();
  private static final WalRecordCodec CODEC =
      new WalRecordCodec(new WireLimits(4, 100, 1 << 20, 1 << 24, 1 << 20, 128, 64, 1 << 24));

  @TempDir Path dir;

  private final AtomicLong firstUnapplied = new AtomicLong(1);

  @Test
  void recordsComeBackAsWrittenWithEachProposalWrittenOnce() throws IOException {
    long seed = System.nanoTime();
    System.out.println("ConsensusLogTest seed " + seed);
    Random random = new Random(seed);
    List<WalRecord> written = new ArrayList<>();
    try (ConsensusLog log = open(bigSegments()).log()) {
      for (long s = 1; s <= 20; s++) {
        List<WalRecord> slot = slot(random, s, false);
        log.append(slot);
        log.sync();
        written.addAll(slot);
      }
    }
    assertThat(encoded(reopenedRecords(bigSegments()))).isEqualTo(encoded(written));
    long plainBytes = written.stream().mapToLong(r -> CODEC.encode(r).length).sum();
    assertThat(walBytes())
        .as("WAL bytes against %d bytes of plain records (seed %d)", plainBytes, seed)
        .isLessThan(plainBytes / 2);
  }

  @Test
  void aProposalSharedAcrossAReopenComesBack() {
    Random random = new Random(7);
    List<WalRecord> slot = slot(random, 1, false);
    try (ConsensusLog log = open(bigSegments()).log()) {
      log.append(slot.subList(0, 1));
      log.sync();
    }
    ConsensusLog.Opened recovered = open(bigSegments());
    // After a restart bft-core continues from the records it recovered: the same proposal object.
    WalRecord.Accepted accepted = (WalRecord.Accepted) replayed(recovered).getFirst();
    List<WalRecord> rest = restOfSlot(accepted.prePrepare(), random);
    recovered.log().append(rest);
    recovered.log().sync();
    recovered.log().close();

    List<WalRecord> all = new ArrayList<>(List.of(accepted));
    all.addAll(rest);
    assertThat(encoded(reopenedRecords(bigSegments()))).isEqualTo(encoded(all));
  }

  /**
   * Recovery streams: a log of 400 blocks of 64 KB (26 MB, all in one 64 MiB segment, so nothing is
   * truncated) is replayed one record at a time, and what the replay still holds at any point is
   * the proposal in hand and at most one accepted, undecided one, whatever the log's size. When
   * open decoded the whole log into a list first, all 400 proposals were reachable at once.
   */
  @Test
  void replayHoldsOneBlockAtATimeWhateverTheLogsSize() {
    Random random = new Random(31);
    int blocks = 400;
    firstUnapplied.set(blocks + 1);
    try (ConsensusLog log = open(bigSegments()).log()) {
      for (long s = 1; s <= blocks; s++) {
        List<WalRecord> batch =
            new ArrayList<>(slot(oneRequestProposal(random, s, 64 << 10), random));
        if (s % 8 == 0) {
          batch.add(new WalRecord.StableCheckpoint(s, digest(random), List.of()));
        }
        log.append(batch);
        log.sync();
      }
    }
    ConsensusLog.Opened opened = open(bigSegments());
    List<WeakReference<byte[]>> payloads = new ArrayList<>();
    int[] mostReachable = {0};
    long[] decided = {0};
    opened
        .records()
        .forEach(
            record -> {
              if (record instanceof WalRecord.Accepted accepted) {
                payloads.add(
                    new WeakReference<>(
                        accepted.prePrepare().proposal().requests().getFirst().payload()));
              } else if (record instanceof WalRecord.Decided) {
                decided[0]++;
              }
              if (payloads.size() % 50 == 0 && record instanceof WalRecord.Accepted) {
                System.gc();
                int reachable = (int) payloads.stream().filter(p -> p.get() != null).count();
                mostReachable[0] = Math.max(mostReachable[0], reachable);
              }
            });
    opened.log().close();

    assertThat(decided[0]).isEqualTo(blocks);
    assertThat(mostReachable[0])
        .as("proposals reachable during the replay of %d", blocks)
        .isLessThanOrEqualTo(2);
  }

  /**
   * Pipelined sequences, stable checkpoints every 8 and the ledger lagging behind the decisions,
   * over small segments that truncation drops: after each reopen every decision the ledger has not
   * applied is there with its whole proposal, and every record about a sequence above the stable
   * checkpoint is there.
   */
  @Test
  void truncationKeepsEveryUnappliedDecisionWithItsProposal() {
    long seed = System.nanoTime();
    System.out.println("ConsensusLogTest seed " + seed);
    truncationScenario(seed, smallSegments());
  }

  /**
   * Seed 3 of the scenario above lost the decision of sequence 4 (reverted ac4bc85): after a reopen
   * the decision of 3 was written plain (index 14) and the one of 4 shared sequence 4's Accepted
   * record (index 11, written before the decision of 3 by pipelining). Truncation kept only the
   * index of the lowest unapplied decision (14) and cut record 11; the decision of 4 then read as a
   * record truncation may drop. Truncation now keeps every unapplied decision's oldest record.
   */
  @Test
  void aSharedDecisionAfterAPlainOneKeepsItsAcceptedRecord() {
    truncationScenario(3, smallSegments());
  }

  /** The scenario above over seeds 0-999 (several minutes: tagged long). */
  @Test
  @Tag("long")
  void truncationKeepsEveryUnappliedDecisionOverManySeeds() {
    for (long seed = 0; seed < 1_000; seed++) {
      firstUnapplied.set(1);
      truncationScenario(seed, new WalConfig(dir.resolve("seed-" + seed), 16_000, 20_000));
    }
  }

  /**
   * A decision below the stable checkpoint whose Accepted record truncation cut is skipped: the
   * ledger applied it, or lost it again in a power loss (its height went back from 10 to 7; a log
   * of plain records would have lost the decision's record as well).
   */
  @Test
  void aDecisionBelowTheCheckpointWhoseProposalWasCutIsSkipped() {
    Random random = new Random(17);
    firstUnapplied.set(10);
    try (ConsensusLog log = open(smallSegments()).log()) {
      List<WalRecord> previousDecision = List.of();
      for (long s = 1; s <= 9; s++) {
        // One proposal per segment: each segment holds [A(s), P(s), S(s), D(s - 1)].
        List<WalRecord> slot = slot(oneRequestProposal(random, s, 12_000), random);
        List<WalRecord> batch = new ArrayList<>(slot.subList(0, 3));
        batch.addAll(previousDecision);
        previousDecision = slot.subList(3, 4);
        log.append(batch);
        log.sync();
      }
      log.append(List.of(new WalRecord.StableCheckpoint(8, digest(random), List.of())));
      log.sync();
      assertThat(log.firstIndex()).as("the segment of A(8), which holds D(7) too").isEqualTo(27);
    }
    assertThat(decidedSequences(reopenedRecords(smallSegments()))).containsExactly(8L);

    firstUnapplied.set(7);
    assertThat(decidedSequences(reopenedRecords(smallSegments()))).containsExactly(8L);
  }

  /**
   * A log that lost the Accepted record of a record above the stable checkpoint (a segment deleted
   * by hand, or a truncation bug) is refused at open: the replica must not vote from it.
   */
  @Test
  void openingRefusesALogThatLostTheProposalOfARecordAboveTheCheckpoint() {
    Random random = new Random(23);
    List<WalRecord> first = slot(oneRequestProposal(random, 1, 12_000), random);
    List<WalRecord> second = slot(oneRequestProposal(random, 2, 12_000), random);
    try (ConsensusLog log = open(smallSegments()).log()) {
      // A(1) alone in segment 0; A(2) starts segment 1, which holds the records sharing A(1).
      log.append(List.of(first.get(0), second.get(0)));
      log.append(first.subList(1, 4));
      log.sync();
    }
    try (Wal wal = Wal.open(smallSegments())) {
      wal.truncateBefore(1);
      assertThat(wal.firstIndex()).isEqualTo(1);
    }
    assertThatThrownBy(() -> open(smallSegments()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "consensus WAL lost the proposal of a Prepared record of sequence 1: truncation cut"
                + " record 0 (stable checkpoint -1, first unapplied sequence 1)");
  }

  private void truncationScenario(long seed, WalConfig config) {
    Random random = new Random(seed);
    List<WalRecord> written = new ArrayList<>();
    ConsensusLog log = open(config).log();
    long stable = 0;
    List<WalRecord> previousDecision = List.of();
    for (long s = 1; s <= 300; s++) {
      List<WalRecord> slot = slot(random, s, random.nextInt(10) == 0);
      // Pipelining: this sequence's pre-prepare, prepare and commit precede the previous one's
      // decision, so a decision often lies in a later segment than its proposal.
      List<WalRecord> batch = new ArrayList<>(slot.subList(0, 3));
      batch.addAll(previousDecision);
      previousDecision = slot.subList(3, slot.size());
      if ((s - 1) % 8 == 0 && s > 1) {
        batch.add(new WalRecord.StableCheckpoint(s - 1, digest(random), List.of()));
        stable = s - 1;
      }
      log.append(batch);
      written.addAll(batch);
      if (random.nextInt(6) == 0) {
        // The ledger catches up now and then (decisions through s - 1 are written): in between
        // it lags, often below the stable checkpoint.
        firstUnapplied.set(s);
      }
      log.sync();
      if (random.nextInt(4) == 0) {
        log.close();
        ConsensusLog.Opened reopened = open(config);
        assertKept(replayed(reopened), written, stable, seed);
        log = reopened.log();
      }
    }
    log.append(previousDecision);
    written.addAll(previousDecision);
    log.sync();
    log.close();
    assertKept(reopenedRecords(config), written, stable, seed);
  }

  /**
   * A crash (kill -9) after any record, or in the middle of one (a torn last record), leaves a log
   * that opens with exactly the whole records before it, every proposal byte for byte, and takes
   * the rest again. The records cover a view change that replaces a sequence's accepted proposal
   * (records of both views share their own view's Accepted record) and a transferred decision.
   */
  @Test
  void everyCrashPointRecoversTheWholeRecordsBeforeIt() throws IOException {
    Random random = new Random(19);
    List<WalRecord> written = viewChangeRecords(random);
    Path original = dir.resolve("original");
    List<Long> ends = new ArrayList<>();
    try (ConsensusLog log = open(bigSegments(original)).log()) {
      ends.add(segmentSize(original));
      for (WalRecord record : written) {
        log.append(List.of(record));
        log.sync();
        ends.add(segmentSize(original));
      }
    }
    byte[] segment = Files.readAllBytes(segmentOf(original));
    for (int whole = 0; whole < written.size(); whole++) {
      long start = ends.get(whole);
      long end = ends.get(whole + 1);
      for (long cut : new long[] {start, start + 1, (start + end) / 2, end - 1}) {
        Path crashed = dir.resolve("crash-" + cut);
        Files.createDirectories(crashed);
        Files.write(crashed.resolve(segmentOf(original).getFileName()), segment);
        try (FileChannel file =
            FileChannel.open(
                crashed.resolve(segmentOf(original).getFileName()), StandardOpenOption.WRITE)) {
          file.truncate(cut);
        }
        ConsensusLog.Opened opened = open(bigSegments(crashed));
        assertThat(encoded(replayed(opened)))
            .as("a crash at byte %d, in record %d", cut, whole)
            .isEqualTo(encoded(written.subList(0, whole)));
        opened.log().append(written.subList(whole, written.size()));
        opened.log().sync();
        opened.log().close();
        assertThat(encoded(reopenedRecords(bigSegments(crashed))))
            .as("records written again after a crash at byte %d", cut)
            .isEqualTo(encoded(written));
      }
    }
  }

  @Test
  void aLogOfPlainRecordsFromEarlierVersionsOpensAndTakesNewRecords() {
    Random random = new Random(11);
    List<WalRecord> written = new ArrayList<>();
    try (Wal wal = Wal.open(bigSegments())) {
      for (long s = 1; s <= 3; s++) {
        for (WalRecord record : slot(random, s, false)) {
          wal.append(CODEC.encode(record));
          written.add(record);
        }
      }
      wal.sync();
    }
    ConsensusLog.Opened opened = open(bigSegments());
    assertThat(encoded(replayed(opened))).isEqualTo(encoded(written));
    List<WalRecord> more = slot(random, 4, false);
    opened.log().append(more);
    opened.log().sync();
    opened.log().close();
    written.addAll(more);

    assertThat(encoded(reopenedRecords(bigSegments()))).isEqualTo(encoded(written));
  }

  @Test
  void aSharedRecordNamingARecordThatIsNoAcceptedOneIsRefused() {
    Random random = new Random(13);
    List<WalRecord> slot = slot(random, 1, false);
    try (Wal wal = Wal.open(bigSegments())) {
      wal.append(CODEC.encode(slot.get(0)));
      // A shared Prepared that names record 5 (there is none): a log this node cannot trust.
      byte[] stub = new byte[9 + CODEC.encode(slot.get(1)).length];
      stub[0] = ProposalSharingFormat.SHARED;
      stub[8] = 5;
      System.arraycopy(CODEC.encode(slot.get(1)), 0, stub, 9, stub.length - 9);
      wal.append(stub);
      wal.sync();
    }
    assertThatThrownBy(() -> open(bigSegments()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "consensus WAL record 1 shares the proposal of record 5, which is not the latest"
                + " accepted pre-prepare of sequence 1");
  }

  private void assertKept(List<WalRecord> kept, List<WalRecord> written, long stable, long seed) {
    List<String> keptBytes = encoded(kept);
    for (WalRecord record : written) {
      long sequence = sequenceOf(record);
      boolean needed =
          sequence > stable
              || (record instanceof WalRecord.Decided && sequence >= firstUnapplied.get());
      if (needed) {
        assertThat(keptBytes)
            .as("%s of sequence %d (stable %d, seed %d)", kind(record), sequence, stable, seed)
            .contains(encoded(List.of(record)).getFirst());
      }
    }
  }

  private static List<Long> decidedSequences(List<WalRecord> records) {
    return records.stream()
        .filter(r -> r instanceof WalRecord.Decided)
        .map(ConsensusLogTest::sequenceOf)
        .toList();
  }

  private static String kind(WalRecord record) {
    return record.getClass().getSimpleName();
  }

  /** Kind and sequence, or kind and view for the view-change records. */
  private static String label(WalRecord record) {
    return switch (record) {
      case WalRecord.ViewChangeSent v -> kind(record) + "@view" + v.viewChange().newView();
      case WalRecord.ViewInstalled v -> kind(record) + "@view" + v.newView().view();
      default -> kind(record) + "@" + sequenceOf(record);
    };
  }

  private static long sequenceOf(WalRecord record) {
    return switch (record) {
      case WalRecord.Accepted a -> a.prePrepare().sequence();
      case WalRecord.Prepared p -> p.certificate().sequence();
      case WalRecord.Signed s -> s.commit().sequence();
      case WalRecord.Decided d -> d.decision().sequence();
      case WalRecord.StableCheckpoint c -> c.sequence();
      default -> throw new IllegalArgumentException("no such records here: " + record);
    };
  }

  /**
   * One sequence's records in bft-core's order: Accepted, Prepared, Signed, Decided; the later ones
   * share the accepted proposal object, unless {@code transferred} (a decision from a peer).
   */
  private static List<WalRecord> slot(Random random, long sequence, boolean transferred) {
    List<WalRecord> records = new ArrayList<>(slot(proposal(random, sequence), random));
    if (transferred) {
      Decision decided = ((WalRecord.Decided) records.getLast()).decision();
      records.set(
          records.size() - 1,
          new WalRecord.Decided(
              new Decision(
                  proposal(new Random(random.nextLong()), sequence),
                  decided.digest(),
                  decided.view(),
                  decided.certificate())));
    }
    return records;
  }

  private static List<WalRecord> slot(Proposal proposal, Random random) {
    long sequence = proposal.sequence();
    PrePrepare prePrepare =
        new PrePrepare(0, sequence, digest(random), proposal, 0, bytes(random, 70));
    List<WalRecord> records = new ArrayList<>();
    records.add(
        new WalRecord.Accepted(
            prePrepare, new Prepare(0, sequence, prePrepare.digest(), 1, bytes(random, 70))));
    records.addAll(restOfSlot(prePrepare, random));
    return records;
  }

  private static List<WalRecord> restOfSlot(PrePrepare prePrepare, Random random) {
    long sequence = prePrepare.sequence();
    Digest digest = prePrepare.digest();
    List<Prepare> prepares = new ArrayList<>();
    for (int sender = 1; sender <= 2; sender++) {
      prepares.add(new Prepare(0, sequence, digest, sender, bytes(random, 70)));
    }
    List<CommitSignature> signatures = new ArrayList<>();
    for (int replica = 0; replica < 3; replica++) {
      signatures.add(new CommitSignature(replica, bytes(random, 70)));
    }
    return List.of(
        new WalRecord.Prepared(new PreparedCertificate(prePrepare, prepares)),
        new WalRecord.Signed(new Commit(0, sequence, digest, 1, bytes(random, 70))),
        new WalRecord.Decided(new Decision(prePrepare.proposal(), digest, 0, signatures)));
  }

  private static Proposal proposal(Random random, long sequence) {
    List<Request> requests = new ArrayList<>();
    for (int i = 1 + random.nextInt(4); i > 0; i--) {
      requests.add(
          new Request(
              new RequestId("client", "tx-" + random.nextLong()),
              bytes(random, 500 + random.nextInt(3_000))));
    }
    return new Proposal(sequence, digest(random), requests, bytes(random, 200));
  }

  /**
   * Sequence 1 decided in view 0; sequence 2 accepted and prepared in view 0, then a view change to
   * view 1 whose new primary re-proposes 2 with another proposal, decided in view 1; sequence 3
   * decided with a decision from a peer (a proposal object of its own); a stable checkpoint at 2.
   */
  private static List<WalRecord> viewChangeRecords(Random random) {
    List<WalRecord> records = new ArrayList<>(slot(random, 1, false));
    List<WalRecord> viewZero = slot(random, 2, false);
    records.addAll(viewZero.subList(0, 2));
    Decision first = ((WalRecord.Decided) records.get(3)).decision();
    PreparedCertificate prepared = ((WalRecord.Prepared) viewZero.get(1)).certificate();
    ViewChange viewChange =
        new ViewChange(
            1, 0, digest(random), List.of(), first, List.of(prepared), 1, bytes(random, 70));
    records.add(new WalRecord.ViewChangeSent(viewChange));
    Proposal reproposed = proposal(random, 2);
    PrePrepare prePrepare = new PrePrepare(1, 2, digest(random), reproposed, 1, bytes(random, 70));
    records.add(
        new WalRecord.ViewInstalled(
            new NewView(1, List.of(viewChange), List.of(prePrepare), 1, bytes(random, 70))));
    records.add(
        new WalRecord.Accepted(
            prePrepare, new Prepare(1, 2, prePrepare.digest(), 0, bytes(random, 70))));
    records.addAll(restOfSlot(prePrepare, random));
    records.addAll(slot(random, 3, true));
    records.add(new WalRecord.StableCheckpoint(2, digest(random), List.of()));
    return records;
  }

  private static Proposal oneRequestProposal(Random random, long sequence, int requestBytes) {
    Request request =
        new Request(new RequestId("client", "tx-" + sequence), bytes(random, requestBytes));
    return new Proposal(sequence, digest(random), List.of(request), bytes(random, 200));
  }

  private static Digest digest(Random random) {
    return new Digest(bytes(random, 32));
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Each record as its kind, sequence and the SHA-256 of its plain encoding: short messages. */
  private static List<String> encoded(List<WalRecord> records) {
    return records.stream()
        .map(r -> label(r) + ":" + HEX.formatHex(sha256(CODEC.encode(r))))
        .toList();
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  private ConsensusLog.Opened open(WalConfig config) {
    return ConsensusLog.open(config, CODEC, firstUnapplied::get);
  }

  private List<WalRecord> reopenedRecords(WalConfig config) {
    ConsensusLog.Opened opened = open(config);
    List<WalRecord> records = replayed(opened);
    opened.log().close();
    return records;
  }

  /** The records a reopened log replays, in order. */
  static List<WalRecord> replayed(ConsensusLog.Opened opened) {
    List<WalRecord> records = new ArrayList<>();
    opened.records().forEach(records::add);
    return records;
  }

  private WalConfig bigSegments() {
    return WalConfig.defaults(dir);
  }

  private static WalConfig bigSegments(Path walDir) {
    return WalConfig.defaults(walDir);
  }

  private static Path segmentOf(Path walDir) throws IOException {
    try (Stream<Path> files = Files.list(walDir)) {
      return files
          .filter(f -> f.toString().endsWith(".wal"))
          .reduce(
              (a, b) -> {
                throw new IllegalStateException("more than one segment in " + walDir);
              })
          .orElseThrow();
    }
  }

  private static long segmentSize(Path walDir) throws IOException {
    return Files.size(segmentOf(walDir));
  }

  /** One to five sequences per segment: truncation drops segments as checkpoints go stable. */
  private WalConfig smallSegments() {
    return new WalConfig(dir, 16_000, 20_000);
  }

  private long walBytes() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
