package io.rubinbft.bft.wire;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads the layout {@link BodyWriter} writes from untrusted bytes, checking every count and length
 * against {@link WireLimits}. Shape only: signatures, digests and quorums are the protocol's
 * MessageValidator's business.
 */
final class BodyReader {

  private final WireReader in;
  private final WireLimits limits;
  private final boolean decisionsNameTheirView;
  private final boolean viewChangesCarryBodies;

  BodyReader(WireReader in, WireLimits limits) {
    this(in, limits, true, false);
  }

  /**
   * @param decisionsNameTheirView false only for WAL records of format 1, written before a decision
   *     carried the view of its commit certificate: such a decision reads as view 0, the view whose
   *     bytes those certificates' signatures cover (WalRecordCodec)
   * @param viewChangesCarryBodies true only for WAL records of formats 1 and 2, whose view changes
   *     and new views held full proposals; since, they hold them by digest (hollow)
   */
  BodyReader(
      WireReader in,
      WireLimits limits,
      boolean decisionsNameTheirView,
      boolean viewChangesCarryBodies) {
    this.in = in;
    this.limits = limits;
    this.decisionsNameTheirView = decisionsNameTheirView;
    this.viewChangesCarryBodies = viewChangesCarryBodies;
  }

  PrePrepare prePrepare() {
    return prePrepare(false);
  }

  private PrePrepare prePrepare(boolean hollow) {
    long view = in.longValue("PrePrepare.view");
    long sequence = in.longValue("PrePrepare.sequence");
    Digest digest = in.digest("PrePrepare.digest");
    Proposal proposal = proposal(hollow);
    int sender = in.replica("PrePrepare.sender", limits.replicas());
    return new PrePrepare(
        view, sequence, digest, proposal, sender, signature("PrePrepare.signature"));
  }

  Prepare prepare() {
    long view = in.longValue("Prepare.view");
    long sequence = in.longValue("Prepare.sequence");
    Digest digest = in.digest("Prepare.digest");
    int sender = in.replica("Prepare.sender", limits.replicas());
    return new Prepare(view, sequence, digest, sender, signature("Prepare.signature"));
  }

  Commit commit() {
    long view = in.longValue("Commit.view");
    long sequence = in.longValue("Commit.sequence");
    Digest digest = in.digest("Commit.digest");
    int sender = in.replica("Commit.sender", limits.replicas());
    return new Commit(view, sequence, digest, sender, signature("Commit.signature"));
  }

  Checkpoint checkpoint() {
    long sequence = in.longValue("Checkpoint.sequence");
    Digest digest = in.digest("Checkpoint.digest");
    int sender = in.replica("Checkpoint.sender", limits.replicas());
    return new Checkpoint(sequence, digest, sender, signature("Checkpoint.signature"));
  }

  ViewChange viewChange() {
    long newView = in.longValue("ViewChange.newView");
    long stableSequence = in.longValue("ViewChange.stableSequence");
    Digest stableDigest = in.digest("ViewChange.stableDigest");
    List<Checkpoint> stableProof = checkpoints("ViewChange.stableProof");
    boolean hollow = !viewChangesCarryBodies;
    Decision lastDecision =
        in.booleanValue("ViewChange.lastDecision present") ? decision(hollow) : null;
    List<PreparedCertificate> prepared =
        list(
            "ViewChange.prepared",
            limits.maxSequencesPerMessage(),
            () -> preparedCertificate(hollow));
    int sender = in.replica("ViewChange.sender", limits.replicas());
    return new ViewChange(
        newView,
        stableSequence,
        stableDigest,
        stableProof,
        lastDecision,
        prepared,
        sender,
        signature("ViewChange.signature"));
  }

  NewView newView() {
    long view = in.longValue("NewView.view");
    List<ViewChange> viewChanges = list("NewView.viewChanges", limits.replicas(), this::viewChange);
    List<PrePrepare> reproposals =
        list(
            "NewView.reproposals",
            limits.maxSequencesPerMessage(),
            () -> prePrepare(!viewChangesCarryBodies));
    int sender = in.replica("NewView.sender", limits.replicas());
    return new NewView(view, viewChanges, reproposals, sender, signature("NewView.signature"));
  }

  Complaint complaint() {
    long view = in.longValue("Complaint.view");
    return new Complaint(view, in.replica("Complaint.sender", limits.replicas()));
  }

  Status status() {
    long view = in.longValue("Status.view");
    boolean viewInstalled = in.booleanValue("Status.viewInstalled");
    long lastDelivered = in.longValue("Status.lastDelivered");
    return new Status(
        view, viewInstalled, lastDelivered, in.replica("Status.sender", limits.replicas()));
  }

  FetchDecisions fetchDecisions() {
    long from = in.longValue("FetchDecisions.from");
    Digest previous = in.digest("FetchDecisions.previous");
    int maxCount = in.intValue("FetchDecisions.maxCount");
    return new FetchDecisions(
        from, previous, maxCount, in.replica("FetchDecisions.sender", limits.replicas()));
  }

  Decisions decisions() {
    List<Decision> decisions = list("Decisions.decisions", Decisions.MAX_COUNT, this::decision);
    return new Decisions(decisions, in.replica("Decisions.sender", limits.replicas()));
  }

  FetchProposal fetchProposal() {
    int at = in.offset();
    long sequence = in.longValue("FetchProposal.sequence");
    if (sequence < 1) {
      throw in.invalid(
          "FetchProposal.sequence at offset " + at + " is " + sequence + " but must be >= 1");
    }
    Digest digest = in.digest("FetchProposal.digest");
    return new FetchProposal(
        sequence, digest, in.replica("FetchProposal.sender", limits.replicas()));
  }

  ProposalBody proposalBody() {
    Proposal proposal = proposal(false);
    return new ProposalBody(proposal, in.replica("ProposalBody.sender", limits.replicas()));
  }

  PreparedCertificate preparedCertificate() {
    return preparedCertificate(false);
  }

  private PreparedCertificate preparedCertificate(boolean hollow) {
    PrePrepare prePrepare = prePrepare(hollow);
    List<Prepare> prepares = list("PreparedCertificate.prepares", limits.replicas(), this::prepare);
    return new PreparedCertificate(prePrepare, prepares);
  }

  Decision decision() {
    return decision(false);
  }

  private Decision decision(boolean hollow) {
    Proposal proposal = proposal(hollow);
    Digest digest = in.digest("Decision.digest");
    long view = 0;
    if (decisionsNameTheirView) {
      int at = in.offset();
      view = in.longValue("Decision.view");
      if (view < 0) {
        throw in.invalid("Decision.view at offset " + at + " is " + view + " but must be >= 0");
      }
    }
    List<CommitSignature> certificate =
        list("Decision.certificate", limits.replicas(), this::commitSignature);
    return new Decision(proposal, digest, view, certificate);
  }

  List<Checkpoint> checkpoints(String field) {
    return list(field, limits.replicas(), this::checkpoint);
  }

  private CommitSignature commitSignature() {
    int replica = in.replica("CommitSignature.replica", limits.replicas());
    return new CommitSignature(replica, signature("CommitSignature.signature"));
  }

  /** A count checked against {@code limit} and the remaining bytes, then that many elements. */
  private <T> List<T> list(String field, int limit, Supplier<T> element) {
    int count = in.count(field, limit);
    List<T> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      list.add(element.get());
    }
    return list;
  }

  /** A proposal's body, or with {@code hollow} only its sequence and predecessor. */
  private Proposal proposal(boolean hollow) {
    int at = in.offset();
    long sequence = in.longValue("Proposal.sequence");
    if (sequence < 1) {
      throw in.invalid(
          "Proposal.sequence at offset " + at + " is " + sequence + " but must be >= 1");
    }
    Digest previous = in.digest("Proposal.previous");
    if (hollow) {
      return Proposal.hollow(sequence, previous);
    }
    int count = in.count("Proposal.requests", limits.maxRequestsPerProposal());
    List<Request> requests = new ArrayList<>(count);
    long batchBytes = 0;
    for (int i = 0; i < count; i++) {
      int start = in.offset();
      requests.add(request());
      batchBytes += in.offset() - start - 3 * Integer.BYTES;
      if (batchBytes > limits.maxBatchBytes()) {
        throw in.invalid(
            "Proposal.requests: "
                + batchBytes
                + " bytes in the first "
                + (i + 1)
                + " requests exceed the limit "
                + limits.maxBatchBytes());
      }
    }
    byte[] payload = in.bytes("Proposal.payload", limits.maxPayloadBytes());
    return new Proposal(sequence, previous, requests, payload);
  }

  private Request request() {
    int at = in.offset();
    int limit = limits.maxRequestBytes();
    String client = in.string("Request.client", limit);
    String key = in.string("Request.key", limit);
    byte[] payload = in.bytes("Request.payload", limit);
    long size = in.offset() - at - 3L * Integer.BYTES;
    if (size > limit) {
      throw in.invalid(
          "Request at offset " + at + " has " + size + " bytes but the limit is " + limit);
    }
    return new Request(new RequestId(client, key), payload);
  }

  private byte[] signature(String field) {
    return in.bytes(field, limits.maxSignatureBytes());
  }
}
