package io.rubinbft.bft.wire;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
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
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Writes the bodies of messages and of the values inside them, field by field in declaration order
 * (WIRE.md). {@link BodyReader} reads exactly this layout back.
 */
final class BodyWriter {

  private BodyWriter() {}

  static void prePrepare(WireWriter out, PrePrepare prePrepare) {
    prePrepare(out, prePrepare, false);
  }

  /**
   * @param hollow the proposal by digest (inside view changes and new views): its sequence and the
   *     predecessor its sender names, not its body (WIRE.md "Bodies by digest")
   */
  private static void prePrepare(WireWriter out, PrePrepare prePrepare, boolean hollow) {
    out.longValue(prePrepare.view()).longValue(prePrepare.sequence()).digest(prePrepare.digest());
    proposal(out, prePrepare.proposal(), hollow);
    out.intValue(prePrepare.sender()).bytes(prePrepare.signature());
  }

  static void prepare(WireWriter out, Prepare prepare) {
    vote(
        out,
        prepare.view(),
        prepare.sequence(),
        prepare.digest(),
        prepare.sender(),
        prepare.signature());
  }

  static void commit(WireWriter out, Commit commit) {
    vote(
        out,
        commit.view(),
        commit.sequence(),
        commit.digest(),
        commit.sender(),
        commit.signature());
  }

  static void checkpoint(WireWriter out, Checkpoint checkpoint) {
    out.longValue(checkpoint.sequence()).digest(checkpoint.digest());
    out.intValue(checkpoint.sender()).bytes(checkpoint.signature());
  }

  static void viewChange(WireWriter out, ViewChange viewChange) {
    out.longValue(viewChange.newView())
        .longValue(viewChange.stableSequence())
        .digest(viewChange.stableDigest());
    checkpoints(out, viewChange.stableProof());
    out.booleanValue(viewChange.lastDecision() != null);
    if (viewChange.lastDecision() != null) {
      decision(out, viewChange.lastDecision(), true);
    }
    list(
        out,
        viewChange.prepared(),
        (writer, certificate) -> {
          prePrepare(writer, certificate.prePrepare(), true);
          list(writer, certificate.prepares(), BodyWriter::prepare);
        });
    out.intValue(viewChange.sender()).bytes(viewChange.signature());
  }

  static void newView(WireWriter out, NewView newView) {
    out.longValue(newView.view());
    list(out, newView.viewChanges(), BodyWriter::viewChange);
    list(out, newView.reproposals(), (writer, prePrepare) -> prePrepare(writer, prePrepare, true));
    out.intValue(newView.sender()).bytes(newView.signature());
  }

  static void status(WireWriter out, Status status) {
    out.longValue(status.view())
        .booleanValue(status.viewInstalled())
        .longValue(status.lastDelivered())
        .intValue(status.sender());
  }

  static void complaint(WireWriter out, Complaint complaint) {
    out.longValue(complaint.view()).intValue(complaint.sender());
  }

  static void fetchDecisions(WireWriter out, FetchDecisions fetch) {
    out.longValue(fetch.from())
        .digest(fetch.previous())
        .intValue(fetch.maxCount())
        .intValue(fetch.sender());
  }

  static void decisions(WireWriter out, Decisions decisions) {
    list(out, decisions.decisions(), BodyWriter::decision);
    out.intValue(decisions.sender());
  }

  static void preparedCertificate(WireWriter out, PreparedCertificate certificate) {
    prePrepare(out, certificate.prePrepare());
    list(out, certificate.prepares(), BodyWriter::prepare);
  }

  static void fetchProposal(WireWriter out, FetchProposal fetch) {
    out.longValue(fetch.sequence()).digest(fetch.digest()).intValue(fetch.sender());
  }

  static void proposalBody(WireWriter out, ProposalBody body) {
    proposal(out, body.proposal(), false);
    out.intValue(body.sender());
  }

  static void decision(WireWriter out, Decision decision) {
    decision(out, decision, false);
  }

  private static void decision(WireWriter out, Decision decision, boolean hollow) {
    proposal(out, decision.proposal(), hollow);
    out.digest(decision.digest());
    out.longValue(decision.view());
    list(
        out,
        decision.certificate(),
        (writer, signature) -> writer.intValue(signature.replica()).bytes(signature.signature()));
  }

  static void checkpoints(WireWriter out, List<Checkpoint> checkpoints) {
    list(out, checkpoints, BodyWriter::checkpoint);
  }

  /** Prepare and commit share one layout; the type tag tells them apart. */
  private static void vote(
      WireWriter out, long view, long sequence, Digest digest, int sender, byte[] signature) {
    out.longValue(view).longValue(sequence).digest(digest).intValue(sender).bytes(signature);
  }

  private static void proposal(WireWriter out, Proposal proposal, boolean hollow) {
    out.longValue(proposal.sequence()).digest(proposal.previous());
    if (hollow) {
      return;
    }
    if (proposal.isHollow()) {
      throw new IllegalArgumentException(
          "a hollow proposal at " + proposal.sequence() + " where its body belongs");
    }
    list(
        out,
        proposal.requests(),
        (writer, request) ->
            writer
                .string(request.id().client())
                .string(request.id().key())
                .bytes(request.payload()));
    out.bytes(proposal.payload());
  }

  /** A u32 count, then the elements. */
  private static <T> void list(
      WireWriter out, List<T> elements, BiConsumer<WireWriter, T> element) {
    out.count(elements.size());
    for (T value : elements) {
      element.accept(out, value);
    }
  }
}
