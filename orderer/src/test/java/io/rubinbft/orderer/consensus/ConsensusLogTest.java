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
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.wire.WalRecordCodec;
import io.rubinbft.bft.wire.WireLimits;
import io.rubinbft.ledger.wal.Wal;
import io.rubinbft.ledger.wal.WalConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
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
    WalRecord.Accepted accepted = (WalRecord.Accepted) recovered.records().getFirst();
    List<WalRecord> rest = restOfSlot(accepted.prePrepare(), random);
    recovered.log().append(rest);
    recovered.log().sync();
    recovered.log().close();

    List<WalRecord> all = new ArrayList<>(List.of(accepted));
    all.addAll(rest);
    assertThat(encoded(reopenedRecords(bigSegments()))).isEqualTo(encoded(all));
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
    Random random = new Random(seed);
    List<WalRecord> written = new ArrayList<>();
    ConsensusLog log = open(smallSegments()).log();
    long stable = 0;
    for (long s = 1; s <= 120; s++) {
      List<WalRecord> slot = slot(random, s, random.nextInt(10) == 0);
      // Pipelining: the next sequence's pre-prepare may precede this one's decision.
      log.append(slot.subList(0, 3));
      log.append(slot.subList(3, slot.size()));
      written.addAll(slot);
      if (s % 8 == 0) {
        WalRecord checkpoint = new WalRecord.StableCheckpoint(s, digest(random), List.of());
        log.append(List.of(checkpoint));
        written.add(checkpoint);
        stable = s;
      }
      firstUnapplied.set(Math.max(firstUnapplied.get(), s - random.nextInt(12)));
      log.sync();
      if (random.nextInt(15) == 0) {
        log.close();
        ConsensusLog.Opened reopened = open(smallSegments());
        assertKept(reopened.records(), written, stable, seed);
        log = reopened.log();
      }
    }
    log.close();
    assertKept(reopenedRecords(smallSegments()), written, stable, seed);
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
    assertThat(encoded(opened.records())).isEqualTo(encoded(written));
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
            .contains(HEX.formatHex(CODEC.encode(record)));
      }
    }
  }

  private static String kind(WalRecord record) {
    return record.getClass().getSimpleName();
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
    Proposal proposal = proposal(random, sequence);
    PrePrepare prePrepare =
        new PrePrepare(0, sequence, digest(random), proposal, 0, bytes(random, 70));
    List<WalRecord> records = new ArrayList<>();
    records.add(
        new WalRecord.Accepted(
            prePrepare, new Prepare(0, sequence, prePrepare.digest(), 1, bytes(random, 70))));
    records.addAll(restOfSlot(prePrepare, random));
    if (transferred) {
      Decision decided = ((WalRecord.Decided) records.getLast()).decision();
      records.set(
          records.size() - 1,
          new WalRecord.Decided(
              new Decision(
                  proposal(new Random(random.nextLong()), sequence),
                  decided.digest(),
                  decided.certificate())));
    }
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
        new WalRecord.Decided(new Decision(prePrepare.proposal(), digest, signatures)));
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

  private static Digest digest(Random random) {
    return new Digest(bytes(random, 32));
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private static List<String> encoded(List<WalRecord> records) {
    return records.stream().map(r -> HEX.formatHex(CODEC.encode(r))).toList();
  }

  private ConsensusLog.Opened open(WalConfig config) {
    return ConsensusLog.open(config, CODEC, firstUnapplied::get);
  }

  private List<WalRecord> reopenedRecords(WalConfig config) {
    ConsensusLog.Opened opened = open(config);
    opened.log().close();
    return opened.records();
  }

  private WalConfig bigSegments() {
    return WalConfig.defaults(dir);
  }

  /** About five sequences per segment: truncation drops segments as checkpoints go stable. */
  private WalConfig smallSegments() {
    return new WalConfig(dir, 40_000, 64_000);
  }

  private long walBytes() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
