package io.rubinbft.bft.message;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The canonical bytes each hash and signature covers. Each signed statement starts with its own tag
 * so a signature over one kind of statement can never be replayed as another, followed by the
 * signer's {@link Epoch} (its anchor's sequence and digest) so a vote of one epoch never verifies
 * in another. The proposal digest is a hash, not a vote, and binds no epoch: a decision is the same
 * whichever epoch's replicas look at it.
 */
public final class SignedBytes {

  /** An epoch's anchor sequence and (32-byte, length-prefixed) digest. */
  private static final int EPOCH_BYTES = 8 + 8 + 32;

  private SignedBytes() {}

  /** The bytes a proposal's digest is the hash of. */
  public static byte[] proposal(Proposal proposal) {
    ByteWriter writer =
        new ByteWriter(expectedSize(proposal))
            .tag("proposal")
            .longValue(proposal.sequence())
            .digest(proposal.previous())
            .longValue(proposal.requests().size());
    for (Request request : proposal.requests()) {
      writer
          .bytes(request.id().client().getBytes(StandardCharsets.UTF_8))
          .bytes(request.id().key().getBytes(StandardCharsets.UTF_8))
          .bytes(request.payload());
    }
    return writer.bytes(proposal.payload()).toBytes();
  }

  /** The encoded size when client ids and keys are ASCII (else the writer grows once or twice). */
  private static int expectedSize(Proposal proposal) {
    int size = 8 + 8 + 8 + 8 + proposal.previous().length() + 8 + 8 + proposal.payload().length;
    for (Request request : proposal.requests()) {
      size += 24 + request.id().client().length() + request.id().key().length();
      size += request.payload().length;
    }
    return size;
  }

  /** A prepare vote; the primary's pre-prepare signs the same statement. */
  public static byte[] prepareVote(Epoch epoch, long view, long sequence, Digest digest) {
    return new ByteWriter(8 + 7 + EPOCH_BYTES + 8 + 8 + 8 + 32)
        .tag("prepare")
        .epoch(epoch)
        .longValue(view)
        .longValue(sequence)
        .digest(digest)
        .toBytes();
  }

  public static byte[] checkpoint(Epoch epoch, long sequence, Digest digest) {
    return new ByteWriter(8 + 10 + EPOCH_BYTES + 8 + 8 + 32)
        .tag("checkpoint")
        .epoch(epoch)
        .longValue(sequence)
        .digest(digest)
        .toBytes();
  }

  /** Covers the whole view change: the certificates inside are bound by their own signatures. */
  public static byte[] viewChange(Epoch epoch, ViewChange viewChange) {
    ByteWriter writer =
        new ByteWriter(256 + 64 * viewChange.prepared().size())
            .tag("view-change")
            .epoch(epoch)
            .longValue(viewChange.newView())
            .longValue(viewChange.sender())
            .longValue(viewChange.stableSequence())
            .digest(viewChange.stableDigest());
    if (viewChange.lastDecision() != null) {
      writer.longValue(viewChange.lastDecision().sequence());
      writer.digest(viewChange.lastDecision().digest());
    }
    writer.longValue(viewChange.prepared().size());
    for (PreparedCertificate certificate : viewChange.prepared()) {
      writer.longValue(certificate.view()).longValue(certificate.sequence());
      writer.digest(certificate.prePrepare().digest());
    }
    return writer.toBytes();
  }

  public static byte[] newView(Epoch epoch, long view, List<PrePrepare> reproposals) {
    ByteWriter writer =
        new ByteWriter(32 + EPOCH_BYTES + 48 * reproposals.size())
            .tag("new-view")
            .epoch(epoch)
            .longValue(view);
    for (PrePrepare prePrepare : reproposals) {
      writer.longValue(prePrepare.sequence()).digest(prePrepare.digest());
    }
    return writer.toBytes();
  }
}
