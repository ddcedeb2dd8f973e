package io.rubinbft.bft.wire;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import java.util.List;

/**
 * Encodes a replica's WAL records for the ledger's append-only log and decodes them on recovery
 * (WIRE.md): a format version byte, a type byte, then the record's fields in the message layouts.
 * The log already rejects torn and CRC-broken records; a record that still does not decode is
 * reported with its reason.
 */
public final class WalRecordCodec {

  /**
   * Bump on any change to a record's layout, including the message layouts inside it. Format 2: a
   * decision carries the view of its commit certificate (after its digest). Format 3: the view
   * changes and new views of {@code ViewChangeSent} and {@code ViewInstalled} hold their proposals
   * by digest, as on the wire (the bodies are in the Accepted, Prepared and Decided records).
   */
  public static final int VERSION = 3;

  /** The format before view changes held proposals by digest; still read (bodies inline). */
  static final int VERSION_WITH_BODIES_IN_VIEW_CHANGES = 2;

  /**
   * The format before decisions named their view; still read, so a node upgraded in place resumes
   * from its WAL. Its decisions read as view 0: their commit signatures were made over bytes that
   * named no view, which for Fabric are exactly the bytes of view 0 (ViewMetadata with view 0).
   */
  static final int VERSION_WITHOUT_DECISION_VIEW = 1;

  private static final int ACCEPTED = 1;
  private static final int PREPARED = 2;
  private static final int SIGNED = 3;
  private static final int DECIDED = 4;
  private static final int STABLE_CHECKPOINT = 5;
  private static final int VIEW_CHANGE_SENT = 6;
  private static final int VIEW_INSTALLED = 7;

  private final WireLimits limits;

  public WalRecordCodec(WireLimits limits) {
    this.limits = limits;
  }

  /** The exact number of bytes {@link #encode} writes for {@code record}. */
  public int encodedSize(WalRecord record) {
    WireWriter counter = WireWriter.counting();
    write(counter, record);
    return counter.position();
  }

  /**
   * @throws IllegalArgumentException if the record exceeds the limits: recovery could not read it
   */
  public byte[] encode(WalRecord record) {
    int size = encodedSize(record);
    if (size > limits.maxMessageBytes()) {
      throw new IllegalArgumentException(
          "record of "
              + size
              + " bytes exceeds the limit "
              + limits.maxMessageBytes()
              + ": recovery could not read it");
    }
    byte[] bytes = new byte[size];
    write(WireWriter.into(bytes, 0), record);
    return bytes;
  }

  public Decoded<WalRecord> decode(byte[] bytes) {
    return decode(bytes, 0, bytes.length);
  }

  /** Decodes {@code length} bytes of {@code bytes} from {@code offset}; never throws for them. */
  public Decoded<WalRecord> decode(byte[] bytes, int offset, int length) {
    if (length > limits.maxMessageBytes()) {
      return new Decoded.Invalid<>(
          "record of " + length + " bytes exceeds the limit " + limits.maxMessageBytes());
    }
    WireReader in = new WireReader(bytes, offset, length);
    try {
      int first = length > 0 ? bytes[offset] & 0xFF : -1;
      boolean oldest = first == VERSION_WITHOUT_DECISION_VIEW;
      boolean bodiesInline = oldest || first == VERSION_WITH_BODIES_IN_VIEW_CHANGES;
      int version = bodiesInline ? first : VERSION;
      WalRecord record = read(in, Header.read(in, version, "WAL record"), !oldest, bodiesInline);
      in.requireEnd("the record");
      return new Decoded.Valid<>(record);
    } catch (InvalidWireBytes e) {
      return new Decoded.Invalid<>(String.valueOf(e.getMessage()));
    }
  }

  private static void write(WireWriter out, WalRecord record) {
    out.byteValue(VERSION);
    switch (record) {
      case WalRecord.Accepted r -> {
        BodyWriter.prePrepare(out.byteValue(ACCEPTED), r.prePrepare());
        out.booleanValue(r.ownPrepare() != null);
        if (r.ownPrepare() != null) {
          BodyWriter.prepare(out, r.ownPrepare());
        }
      }
      case WalRecord.Prepared r ->
          BodyWriter.preparedCertificate(out.byteValue(PREPARED), r.certificate());
      case WalRecord.Signed r -> BodyWriter.commit(out.byteValue(SIGNED), r.commit());
      case WalRecord.Decided r -> BodyWriter.decision(out.byteValue(DECIDED), r.decision());
      case WalRecord.StableCheckpoint r -> {
        out.byteValue(STABLE_CHECKPOINT).longValue(r.sequence()).digest(r.digest());
        BodyWriter.checkpoints(out, r.proof());
      }
      case WalRecord.ViewChangeSent r ->
          BodyWriter.viewChange(out.byteValue(VIEW_CHANGE_SENT), r.viewChange());
      case WalRecord.ViewInstalled r ->
          BodyWriter.newView(out.byteValue(VIEW_INSTALLED), r.newView());
    }
  }

  private WalRecord read(
      WireReader in, int type, boolean decisionsNameTheirView, boolean bodiesInline) {
    BodyReader body = new BodyReader(in, limits, decisionsNameTheirView, bodiesInline);
    return switch (type) {
      case ACCEPTED -> {
        PrePrepare prePrepare = body.prePrepare();
        Prepare ownPrepare = in.booleanValue("Accepted.ownPrepare present") ? body.prepare() : null;
        yield new WalRecord.Accepted(prePrepare, ownPrepare);
      }
      case PREPARED -> new WalRecord.Prepared(body.preparedCertificate());
      case SIGNED -> new WalRecord.Signed(body.commit());
      case DECIDED -> new WalRecord.Decided(body.decision());
      case STABLE_CHECKPOINT -> {
        long sequence = in.longValue("StableCheckpoint.sequence");
        Digest digest = in.digest("StableCheckpoint.digest");
        List<Checkpoint> proof = body.checkpoints("StableCheckpoint.proof");
        yield new WalRecord.StableCheckpoint(sequence, digest, proof);
      }
      case VIEW_CHANGE_SENT -> new WalRecord.ViewChangeSent(body.viewChange());
      case VIEW_INSTALLED -> new WalRecord.ViewInstalled(body.newView());
      default -> throw in.invalid("unknown WAL record type " + type);
    };
  }
}
