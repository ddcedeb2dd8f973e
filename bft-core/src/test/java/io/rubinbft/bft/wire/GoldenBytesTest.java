package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Complaint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the exact bytes of one value of every type. A failure here means the wire or WAL format
 * changed: if on purpose, bump {@link MessageCodec#VERSION} or {@link WalRecordCodec#VERSION} and
 * update WIRE.md together with these bytes.
 */
class GoldenBytesTest {

  // Field by field (WIRE.md): i64 and i32 big-endian, bytes and strings as u32 length + bytes.
  private static final String PROPOSAL =
      "0000000000000005" // sequence 5
          + "00000004d0d0d0d0" // previous digest
          + "00000001" // one request
          + "000000026331" // client "c1"
          + "000000057478e282ac" // key "tx€", UTF-8
          + "00000003010203" // request payload
          + "00000001bb"; // proposal payload

  /** Inside view changes and new views a proposal travels by digest: sequence and previous. */
  private static final String HOLLOW_PROPOSAL =
      "0000000000000005" // sequence 5
          + "00000004d0d0d0d0"; // previous digest

  private static final String PRE_PREPARE =
      "0000000000000002" // view 2
          + "0000000000000005" // sequence 5
          + "00000004d1d1d1d1" // digest
          + PROPOSAL
          + "00000002" // sender 2
          + "00000002a1a1"; // signature

  private static final String HOLLOW_PRE_PREPARE = PRE_PREPARE.replace(PROPOSAL, HOLLOW_PROPOSAL);

  private static final String PREPARE =
      "0000000000000002" + "0000000000000005" + "00000004d1d1d1d1" + "00000000" + "00000002b1b1";

  private static final String COMMIT =
      "0000000000000002" + "0000000000000005" + "00000004d1d1d1d1" + "00000001" + "00000002c1c1";

  private static final String CHECKPOINT =
      "0000000000000004" + "00000004d4d4d4d4" + "00000003" + "00000002c4c4";

  private static final String DECISION =
      PROPOSAL
          + "00000004d1d1d1d1" // digest
          + "0000000000000005" // view 5 of the commit certificate
          + "00000001" // one commit signature
          + "00000001" // by replica 1
          + "00000002c1c1";

  private static final String CERTIFICATE = PRE_PREPARE + "00000001" + PREPARE;

  /** A view change as WAL format 2 held it, with its proposals' bodies. */
  private static final String VIEW_CHANGE_WITH_BODIES =
      "0000000000000003" // new view 3
          + "0000000000000004" // stable sequence 4
          + "00000004d4d4d4d4" // stable digest
          + "00000001" // one checkpoint in the stable proof
          + CHECKPOINT
          + "01" // last decision present
          + DECISION
          + "00000001" // one prepared certificate
          + CERTIFICATE
          + "00000001" // sender 1
          + "00000002e1e1";

  private static final String VIEW_CHANGE =
      VIEW_CHANGE_WITH_BODIES.replace(PROPOSAL, HOLLOW_PROPOSAL);

  private final MessageCodec messages = new MessageCodec(TestLimits.LIMITS);
  private final WalRecordCodec records = new WalRecordCodec(TestLimits.LIMITS);

  @Test
  void messages() {
    assertThat(hex(messages.encode(prePrepare()))).isEqualTo("0401" + PRE_PREPARE);
    assertThat(hex(messages.encode(prepare()))).isEqualTo("0402" + PREPARE);
    assertThat(hex(messages.encode(commit()))).isEqualTo("0403" + COMMIT);
    assertThat(hex(messages.encode(checkpoint()))).isEqualTo("0404" + CHECKPOINT);
    assertThat(hex(messages.encode(viewChange()))).isEqualTo("0405" + VIEW_CHANGE);
    assertThat(
            hex(
                messages.encode(
                    new NewView(3, List.of(viewChange()), List.of(prePrepare()), 3, sig(0xAE)))))
        .isEqualTo(
            "0406"
                + "0000000000000003" // view 3
                + "00000001"
                + VIEW_CHANGE
                + "00000001"
                + HOLLOW_PRE_PREPARE
                + "00000003"
                + "00000002aeae");
    assertThat(hex(messages.encode(new Status(3, true, 42, 2))))
        .isEqualTo("0407" + "0000000000000003" + "01" + "000000000000002a" + "00000002");
    assertThat(hex(messages.encode(new FetchDecisions(17, new Digest(new byte[] {9, 9}), 64, 1))))
        .isEqualTo("0408" + "0000000000000011" + "000000020909" + "00000040" + "00000001");
    assertThat(hex(messages.encode(new Decisions(List.of(decision()), 0))))
        .isEqualTo("0409" + "00000001" + DECISION + "00000000");
    assertThat(hex(messages.encode(new FetchProposal(5, digest(0xD1), 2))))
        .isEqualTo("040a" + "0000000000000005" + "00000004d1d1d1d1" + "00000002");
    assertThat(hex(messages.encode(new ProposalBody(prePrepare().proposal(), 1))))
        .isEqualTo("040b" + PROPOSAL + "00000001");
    assertThat(hex(messages.encode(new Complaint(5, 3))))
        .isEqualTo("040c" + "0000000000000005" + "00000003");
  }

  @Test
  void walRecords() {
    assertThat(hex(records.encode(new WalRecord.Accepted(prePrepare(), prepare()))))
        .isEqualTo("0301" + PRE_PREPARE + "01" + PREPARE);
    assertThat(hex(records.encode(new WalRecord.Accepted(prePrepare(), null))))
        .isEqualTo("0301" + PRE_PREPARE + "00");
    assertThat(hex(records.encode(new WalRecord.Prepared(certificate()))))
        .isEqualTo("0302" + CERTIFICATE);
    assertThat(hex(records.encode(new WalRecord.Signed(commit())))).isEqualTo("0303" + COMMIT);
    assertThat(hex(records.encode(new WalRecord.Decided(decision())))).isEqualTo("0304" + DECISION);
    assertThat(
            hex(
                records.encode(
                    new WalRecord.StableCheckpoint(4, digest(0xD4), List.of(checkpoint())))))
        .isEqualTo("0305" + "0000000000000004" + "00000004d4d4d4d4" + "00000001" + CHECKPOINT);
    assertThat(hex(records.encode(new WalRecord.ViewChangeSent(viewChange()))))
        .isEqualTo("0306" + VIEW_CHANGE);
    assertThat(
            hex(
                records.encode(
                    new WalRecord.ViewInstalled(
                        new NewView(3, List.of(), List.of(), 3, sig(0xAE))))))
        .isEqualTo(
            "0307" + "0000000000000003" + "00000000" + "00000000" + "00000003" + "00000002aeae");
  }

  /**
   * WAL format 1, before a decision named its view: a node upgraded in place reads its log. Its
   * decisions read as view 0, the view whose bytes their commit signatures cover.
   */
  @Test
  void walRecordsOfFormatOneStillDecode() {
    String decisionWithoutView = DECISION.replace("0000000000000005" + "00000001", "00000001");
    Decoded<WalRecord> decided =
        records.decode(HexFormat.of().parseHex("0104" + decisionWithoutView));
    assertThat(decided).isInstanceOf(Decoded.Valid.class);
    WalRecord.Decided record = (WalRecord.Decided) ((Decoded.Valid<WalRecord>) decided).value();
    assertThat(record.decision().view()).isZero();
    assertThat(hex(records.encode(record)))
        .isEqualTo("0304" + DECISION.replace("0000000000000005" + "00000001", zeroView()));

    Decoded<WalRecord> signed = records.decode(HexFormat.of().parseHex("0103" + COMMIT));
    assertThat(hex(records.encode(((Decoded.Valid<WalRecord>) signed).value())))
        .isEqualTo("0303" + COMMIT);
  }

  /** WAL format 2: a view change held its proposals' bodies; they read back whole. */
  @Test
  void walRecordsOfFormatTwoStillDecodeWithTheirBodies() {
    Decoded<WalRecord> sent =
        records.decode(HexFormat.of().parseHex("0206" + VIEW_CHANGE_WITH_BODIES));

    assertThat(sent).isInstanceOf(Decoded.Valid.class);
    ViewChange viewChange =
        ((WalRecord.ViewChangeSent) ((Decoded.Valid<WalRecord>) sent).value()).viewChange();
    assertThat(viewChange).usingRecursiveComparison().isEqualTo(viewChange());
    assertThat(hex(records.encode(new WalRecord.ViewChangeSent(viewChange))))
        .isEqualTo("0306" + VIEW_CHANGE);
  }

  private static String zeroView() {
    return "0000000000000000" + "00000001";
  }

  private static PrePrepare prePrepare() {
    Proposal proposal =
        new Proposal(
            5,
            digest(0xD0),
            List.of(new Request(new RequestId("c1", "tx€"), new byte[] {1, 2, 3})),
            new byte[] {(byte) 0xBB});
    return new PrePrepare(2, 5, digest(0xD1), proposal, 2, sig(0xA1));
  }

  private static Commit commit() {
    return new Commit(2, 5, digest(0xD1), 1, sig(0xC1));
  }

  private static Prepare prepare() {
    return new Prepare(2, 5, digest(0xD1), 0, sig(0xB1));
  }

  private static Checkpoint checkpoint() {
    return new Checkpoint(4, digest(0xD4), 3, sig(0xC4));
  }

  private static PreparedCertificate certificate() {
    return new PreparedCertificate(prePrepare(), List.of(prepare()));
  }

  private static Decision decision() {
    return new Decision(
        prePrepare().proposal(), digest(0xD1), 5, List.of(new CommitSignature(1, sig(0xC1))));
  }

  private static ViewChange viewChange() {
    return new ViewChange(
        3,
        4,
        digest(0xD4),
        List.of(checkpoint()),
        decision(),
        List.of(certificate()),
        1,
        sig(0xE1));
  }

  /** Four bytes: enough to see where a digest sits in the hex. */
  private static Digest digest(int fill) {
    return new Digest(new byte[] {(byte) fill, (byte) fill, (byte) fill, (byte) fill});
  }

  private static byte[] sig(int fill) {
    return new byte[] {(byte) fill, (byte) fill};
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
