package io.rubinbft.bft.wire;

import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Complaint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.FetchProposal;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;

/**
 * Encodes the messages replicas exchange and decodes them from peers' bytes (WIRE.md): a format
 * version byte, a type byte, then the message's fields. The encoding is canonical: a valid input
 * decodes to a message that encodes back to the same bytes.
 */
public final class MessageCodec {

  /**
   * Bump on any change to a message's layout (WIRE.md "Versioning"). Format 3: a decision carries
   * the view of its commit certificate. Format 4: view changes and new views carry their proposals
   * by digest, and {@code FetchProposal} / {@code ProposalBody} fetch the bodies.
   */
  public static final int VERSION = 4;

  private static final int PRE_PREPARE = 1;
  private static final int PREPARE = 2;
  private static final int COMMIT = 3;
  private static final int CHECKPOINT = 4;
  private static final int VIEW_CHANGE = 5;
  private static final int NEW_VIEW = 6;
  private static final int STATUS = 7;
  private static final int FETCH_DECISIONS = 8;
  private static final int DECISIONS = 9;
  private static final int FETCH_PROPOSAL = 10;
  private static final int PROPOSAL_BODY = 11;
  private static final int COMPLAINT = 12;

  private final WireLimits limits;

  public MessageCodec(WireLimits limits) {
    this.limits = limits;
  }

  /** The exact number of bytes {@link #encode} writes for {@code message}. */
  public int encodedSize(Message message) {
    WireWriter counter = WireWriter.counting();
    write(counter, message);
    return counter.position();
  }

  public byte[] encode(Message message) {
    byte[] bytes = new byte[checkedSize(message)];
    write(WireWriter.into(bytes, 0), message);
    return bytes;
  }

  /**
   * Writes {@code message} into {@code buffer} at {@code offset} (e.g. a transport's claimed slot)
   * and returns the number of bytes written.
   *
   * @throws IllegalArgumentException if it does not fit; size the slot with {@link #encodedSize}
   */
  public int encode(Message message, byte[] buffer, int offset) {
    int size = checkedSize(message);
    if (offset < 0 || size > buffer.length - offset) {
      throw new IllegalArgumentException(
          size + " bytes do not fit a buffer of " + buffer.length + " at offset " + offset);
    }
    write(WireWriter.into(buffer, offset), message);
    return size;
  }

  public Decoded<Message> decode(byte[] bytes) {
    return decode(bytes, 0, bytes.length);
  }

  /** Decodes {@code length} bytes of {@code bytes} from {@code offset}; never throws for them. */
  public Decoded<Message> decode(byte[] bytes, int offset, int length) {
    if (length > limits.maxMessageBytes()) {
      return new Decoded.Invalid<>(
          "message of " + length + " bytes exceeds the limit " + limits.maxMessageBytes());
    }
    WireReader in = new WireReader(bytes, offset, length);
    try {
      Message message = read(in, Header.read(in, VERSION, "message"));
      in.requireEnd("the message");
      return new Decoded.Valid<>(message);
    } catch (InvalidWireBytes e) {
      return new Decoded.Invalid<>(String.valueOf(e.getMessage()));
    }
  }

  private int checkedSize(Message message) {
    int size = encodedSize(message);
    if (size > limits.maxMessageBytes()) {
      throw new IllegalArgumentException(
          "message of "
              + size
              + " bytes exceeds the limit "
              + limits.maxMessageBytes()
              + ": peers would drop it");
    }
    return size;
  }

  private static void write(WireWriter out, Message message) {
    out.byteValue(VERSION);
    switch (message) {
      case PrePrepare m -> BodyWriter.prePrepare(out.byteValue(PRE_PREPARE), m);
      case Prepare m -> BodyWriter.prepare(out.byteValue(PREPARE), m);
      case Commit m -> BodyWriter.commit(out.byteValue(COMMIT), m);
      case Checkpoint m -> BodyWriter.checkpoint(out.byteValue(CHECKPOINT), m);
      case ViewChange m -> BodyWriter.viewChange(out.byteValue(VIEW_CHANGE), m);
      case NewView m -> BodyWriter.newView(out.byteValue(NEW_VIEW), m);
      case Status m -> BodyWriter.status(out.byteValue(STATUS), m);
      case FetchDecisions m -> BodyWriter.fetchDecisions(out.byteValue(FETCH_DECISIONS), m);
      case Decisions m -> BodyWriter.decisions(out.byteValue(DECISIONS), m);
      case FetchProposal m -> BodyWriter.fetchProposal(out.byteValue(FETCH_PROPOSAL), m);
      case ProposalBody m -> BodyWriter.proposalBody(out.byteValue(PROPOSAL_BODY), m);
      case Complaint m -> BodyWriter.complaint(out.byteValue(COMPLAINT), m);
    }
  }

  private Message read(WireReader in, int type) {
    BodyReader body = new BodyReader(in, limits);
    return switch (type) {
      case PRE_PREPARE -> body.prePrepare();
      case PREPARE -> body.prepare();
      case COMMIT -> body.commit();
      case CHECKPOINT -> body.checkpoint();
      case VIEW_CHANGE -> body.viewChange();
      case NEW_VIEW -> body.newView();
      case STATUS -> body.status();
      case FETCH_DECISIONS -> body.fetchDecisions();
      case DECISIONS -> body.decisions();
      case FETCH_PROPOSAL -> body.fetchProposal();
      case PROPOSAL_BODY -> body.proposalBody();
      case COMPLAINT -> body.complaint();
      default -> throw in.invalid("unknown message type " + type);
    };
  }
}
