package io.rubinbft.bft.protocol;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
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
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ProposalBody;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The boundary check of every message from a peer (docs/ARCHITECTURE.md principle 6): shape,
 * sender, digests and signatures, independent of the replica's state. A message with a reason is
 * dropped and counted; nothing a peer sends gets further.
 */
public final class MessageValidator {

  private final ReplicaConfig config;
  private final Epoch epoch;
  private final Quorums quorums;
  private final Crypto crypto;
  private final ProposalSigner signer;

  /** A validator for messages of {@code epoch}, whose replicas {@code config} describes. */
  public MessageValidator(ReplicaConfig config, Epoch epoch, Crypto crypto, ProposalSigner signer) {
    this.config = config;
    this.epoch = epoch;
    this.quorums = new Quorums(config.replicas());
    this.crypto = crypto;
    this.signer = signer;
  }

  /** Why {@code message}, which the transport authenticated as from {@code from}, is invalid. */
  public Optional<String> invalidReason(int from, Message message) {
    if (message == null) {
      return Optional.of("malformed: null message");
    }
    Optional<String> sender = senderReason(from, message);
    if (sender.isPresent()) {
      return sender;
    }
    return switch (message) {
      case PrePrepare prePrepare -> prePrepareReason(prePrepare);
      case Prepare prepare -> prepareReason(prepare);
      case Commit commit -> commitShapeReason(commit);
      case Checkpoint checkpoint -> checkpointReason(checkpoint);
      case ViewChange viewChange -> viewChangeReason(viewChange);
      case NewView newView -> newViewShapeReason(newView);
      case Status status ->
          status.view() < 0 || status.lastDelivered() < 0
              ? Optional.of("malformed: negative status field")
              : Optional.empty();
      case FetchDecisions fetch -> fetchReason(fetch);
      case Decisions decisions -> Optional.empty();
      case FetchProposal fetch ->
          fetch.digest() == null || fetch.sequence() <= epoch.sequence()
              ? Optional.of("malformed: proposal fetch at " + fetch.sequence())
              : Optional.empty();
      case ProposalBody body ->
          body.proposal() == null || body.proposal().isHollow()
              ? Optional.of("malformed: proposal body without a body")
              : proposalReason(body.proposal(), body.proposal().sequence());
      case Complaint complaint ->
          complaint.view() < 0
              ? Optional.of("malformed: complaint for view " + complaint.view())
              : Optional.empty();
    };
  }

  /**
   * Why a view change or new view whose proposals may still be hollow (by digest, as on the wire)
   * is invalid, checking all that needs no body: sender, signatures, the stable checkpoint's proof
   * and each prepared certificate's quorum of votes. A replica checks this before it fetches any
   * body, so it fetches only bodies that a quorum prepared or that a view change names as decided,
   * and checks the whole message with {@link #invalidReason} once the bodies are in.
   */
  public Optional<String> hollowReason(int from, Message message) {
    Optional<String> sender = senderReason(from, message);
    if (sender.isPresent()) {
      return sender;
    }
    return switch (message) {
      case ViewChange viewChange -> viewChangeReason(viewChange, false);
      case NewView newView -> {
        Optional<String> shape = newViewShapeReason(newView);
        if (shape.isPresent()) {
          yield shape;
        }
        Optional<String> viewChanges = viewChangesReason(newView, false);
        if (viewChanges.isPresent()) {
          yield viewChanges;
        }
        for (PrePrepare prePrepare : newView.reproposals()) {
          Optional<String> reason =
              prePrepare.view() != newView.view()
                  ? Optional.of("bad new view: a re-proposal of another view")
                  : prePrepareReason(prePrepare, false).map(why -> "bad new view: " + why);
          if (reason.isPresent()) {
            yield reason;
          }
        }
        yield Optional.empty();
      }
      default -> invalidReason(from, message);
    };
  }

  /** Why {@code message} may not come from {@code from}, whom the transport authenticated. */
  private Optional<String> senderReason(int from, Message message) {
    // A new view is signed by its primary and proves itself, so any replica may relay it.
    if (message.sender() != from && !(message instanceof NewView)) {
      return Optional.of(
          "spoofed: sender field is " + message.sender() + " but the transport says " + from);
    }
    if (!isReplica(from)) {
      return Optional.of("malformed: sender " + from + " is not a replica");
    }
    return Optional.empty();
  }

  /**
   * Why one of the view changes {@code newView} holds is invalid or for another view. With {@code
   * bodies} false, their proposals may be hollow (see {@link #viewChangeReason(ViewChange,
   * boolean)}).
   */
  Optional<String> viewChangesReason(NewView newView, boolean bodies) {
    for (ViewChange viewChange : newView.viewChanges()) {
      if (viewChange.newView() != newView.view()) {
        return Optional.of(
            "bad new view: holds a view change for "
                + viewChange.newView()
                + " instead of "
                + newView.view());
      }
      Optional<String> reason =
          isReplica(viewChange.sender())
              ? viewChangeReason(viewChange, bodies)
              : Optional.of("malformed: sender " + viewChange.sender() + " is not a replica");
      if (reason.isPresent()) {
        return Optional.of("bad new view: " + reason.get());
      }
    }
    return Optional.empty();
  }

  private Optional<String> fetchReason(FetchDecisions fetch) {
    if (fetch.from() < 1 || fetch.maxCount() < 1 || fetch.previous() == null) {
      return Optional.of("malformed: fetch from " + fetch.from() + " count " + fetch.maxCount());
    }
    // Decisions at or below the anchor belong to an older epoch, whose certificates this epoch's
    // replicas cannot check: a replica that lacks them catches up across epochs, not from here.
    return fetch.from() <= epoch.sequence()
        ? Optional.of(
            "other epoch: fetch from "
                + fetch.from()
                + " at or below the epoch's anchor "
                + epoch.sequence())
        : Optional.empty();
  }

  Optional<String> prePrepareReason(PrePrepare prePrepare) {
    return prePrepareReason(prePrepare, true);
  }

  /** With {@code body} false, the proposal is not looked at (it may be hollow). */
  private Optional<String> prePrepareReason(PrePrepare prePrepare, boolean body) {
    if (prePrepare.digest() == null
        || prePrepare.proposal() == null
        || prePrepare.signature() == null) {
      return Optional.of("malformed: pre-prepare with a null field");
    }
    if (prePrepare.view() < 0 || prePrepare.sender() != primary(prePrepare.view())) {
      return Optional.of(
          "not primary: pre-prepare for view "
              + prePrepare.view()
              + " from "
              + prePrepare.sender()
              + " but the primary is "
              + primary(prePrepare.view()));
    }
    Optional<String> proposalReason = proposalReason(prePrepare.proposal(), prePrepare.sequence());
    if (proposalReason.isPresent()) {
      return proposalReason;
    }
    Digest actual = body ? digest(prePrepare.proposal()) : prePrepare.digest();
    if (!actual.equals(prePrepare.digest())) {
      return Optional.of(
          "wrong digest: pre-prepare says "
              + prePrepare.digest()
              + " but proposal hashes to "
              + actual);
    }
    return voteSignatureReason(
        prePrepare.view(),
        prePrepare.sequence(),
        prePrepare.digest(),
        prePrepare.sender(),
        prePrepare.signature());
  }

  Optional<String> proposalReason(Proposal proposal, long sequence) {
    if (proposal.sequence() != sequence) {
      return Optional.of(
          "wrong sequence: proposal is for " + proposal.sequence() + " but sent for " + sequence);
    }
    if (proposal.requests().size() > config.batchMaxCount()) {
      return Optional.of(
          "batch too large: "
              + proposal.requests().size()
              + " requests but at most "
              + config.batchMaxCount());
    }
    long bytes = 0;
    for (Request request : proposal.requests()) {
      if (request == null || request.size() > config.requestMaxBytes()) {
        return Optional.of("request too large: more than " + config.requestMaxBytes() + " bytes");
      }
      bytes += request.size();
    }
    if (bytes > config.batchMaxBytes()) {
      return Optional.of(
          "batch too large: " + bytes + " bytes but at most " + config.batchMaxBytes());
    }
    return Optional.empty();
  }

  Optional<String> prepareReason(Prepare prepare) {
    if (prepare.digest() == null || prepare.signature() == null || prepare.view() < 0) {
      return Optional.of("malformed: prepare with a null field or negative view");
    }
    if (prepare.sender() == primary(prepare.view())) {
      return Optional.of("not backup: prepare from the primary of view " + prepare.view());
    }
    return voteSignatureReason(
        prepare.view(),
        prepare.sequence(),
        prepare.digest(),
        prepare.sender(),
        prepare.signature());
  }

  private Optional<String> commitShapeReason(Commit commit) {
    return commit.digest() == null
            || commit.signature() == null
            || commit.sequence() < 1
            || commit.view() < 0
        ? Optional.of("malformed: commit with a null field, sequence below 1 or negative view")
        : Optional.empty();
  }

  Optional<String> checkpointReason(Checkpoint checkpoint) {
    if (checkpoint.digest() == null || checkpoint.signature() == null) {
      return Optional.of("malformed: checkpoint with a null field");
    }
    // Where checkpoints fall depends on the decided chain (SlotLog), which a message alone does
    // not show: any sequence above the anchor may be one. A quorum of them is still needed to make
    // one stable, and correct replicas sign only where they found one.
    if (checkpoint.sequence() <= epoch.sequence()) {
      return Optional.of(
          "malformed: checkpoint at "
              + checkpoint.sequence()
              + ", not above the epoch's anchor "
              + epoch.sequence());
    }
    byte[] signed = SignedBytes.checkpoint(epoch, checkpoint.sequence(), checkpoint.digest());
    return crypto.verify(checkpoint.sender(), signed, checkpoint.signature())
        ? Optional.empty()
        : Optional.of("bad signature: checkpoint at " + checkpoint.sequence());
  }

  Optional<String> viewChangeReason(ViewChange viewChange) {
    return viewChangeReason(viewChange, true);
  }

  /**
   * With {@code bodies} false, its proposals may be hollow: neither their digests nor the
   * decision's commit signatures (which cover the proposal) are checked.
   */
  private Optional<String> viewChangeReason(ViewChange viewChange, boolean bodies) {
    if (viewChange.stableDigest() == null || viewChange.signature() == null) {
      return Optional.of("malformed: view change with a null field");
    }
    if (viewChange.newView() < 1 || viewChange.stableSequence() < 0) {
      return Optional.of("malformed: view change to view " + viewChange.newView());
    }
    if (!crypto.verify(
        viewChange.sender(), SignedBytes.viewChange(epoch, viewChange), viewChange.signature())) {
      return Optional.of("bad signature: view change from " + viewChange.sender());
    }
    Optional<String> proof = stableProofReason(viewChange);
    if (proof.isPresent()) {
      return proof;
    }
    Decision decision = viewChange.lastDecision();
    if (decision != null) {
      if (decision.proposal() == null || decision.sequence() <= viewChange.stableSequence()) {
        return Optional.of("bad decision: view change decision not above its checkpoint");
      }
      Optional<String> reason = bodies ? decisionReason(decision) : Optional.empty();
      if (reason.isPresent()) {
        return reason;
      }
    }
    Set<Long> sequences = new HashSet<>();
    for (PreparedCertificate certificate : viewChange.prepared()) {
      Optional<String> reason = certificateReason(viewChange, certificate, bodies);
      if (reason.isPresent()) {
        return reason;
      }
      if (!sequences.add(certificate.sequence())) {
        return Optional.of("bad certificate: two for sequence " + certificate.sequence());
      }
    }
    return Optional.empty();
  }

  private Optional<String> stableProofReason(ViewChange viewChange) {
    long sequence = viewChange.stableSequence();
    if (sequence < epoch.sequence()) {
      return Optional.of(
          "bad checkpoint proof: sequence "
              + sequence
              + " is below the epoch's anchor "
              + epoch.sequence());
    }
    if (sequence == epoch.sequence()) {
      return viewChange.stableDigest().equals(epoch.digest())
          ? Optional.empty()
          : Optional.of(
              "bad checkpoint proof: sequence "
                  + sequence
                  + " must carry the epoch's anchor digest "
                  + epoch.digest());
    }
    Set<Integer> signers = new HashSet<>();
    for (Checkpoint checkpoint : viewChange.stableProof()) {
      if (checkpoint.sequence() != sequence
          || !viewChange.stableDigest().equals(checkpoint.digest())
          || !isReplica(checkpoint.sender())
          || checkpointReason(checkpoint).isPresent()) {
        return Optional.of("bad checkpoint proof: a checkpoint does not match " + sequence);
      }
      signers.add(checkpoint.sender());
    }
    return signers.size() >= quorums.quorum()
        ? Optional.empty()
        : Optional.of(
            "bad checkpoint proof: "
                + signers.size()
                + " signers but a quorum is "
                + quorums.quorum());
  }

  private Optional<String> certificateReason(
      ViewChange viewChange, PreparedCertificate certificate, boolean body) {
    PrePrepare prePrepare = certificate.prePrepare();
    if (prePrepare == null) {
      return Optional.of("bad certificate: null pre-prepare");
    }
    if (prePrepare.view() >= viewChange.newView()) {
      return Optional.of(
          "bad certificate: view " + prePrepare.view() + " is not below " + viewChange.newView());
    }
    long sequence = prePrepare.sequence();
    if (sequence <= viewChange.stableSequence()
        || sequence > viewChange.stableSequence() + config.window()) {
      return Optional.of("bad certificate: sequence " + sequence + " outside the window");
    }
    Optional<String> prePrepareReason = prePrepareReason(prePrepare, body);
    if (prePrepareReason.isPresent()) {
      return Optional.of("bad certificate: " + prePrepareReason.get());
    }
    return preparesReason(prePrepare, certificate.prepares());
  }

  private Optional<String> preparesReason(PrePrepare prePrepare, List<Prepare> prepares) {
    Set<Integer> backups = new HashSet<>();
    for (Prepare prepare : prepares) {
      if (!isReplica(prepare.sender())
          || prepare.view() != prePrepare.view()
          || prepare.sequence() != prePrepare.sequence()
          || !prePrepare.digest().equals(prepare.digest())
          || prepareReason(prepare).isPresent()) {
        return Optional.of("bad certificate: a prepare does not match its pre-prepare");
      }
      backups.add(prepare.sender());
    }
    return backups.size() >= quorums.quorum() - 1
        ? Optional.empty()
        : Optional.of(
            "bad certificate: "
                + backups.size()
                + " prepares but "
                + (quorums.quorum() - 1)
                + " needed");
  }

  /**
   * Why a decision is not proven: its digest must be its proposal's, and a quorum of distinct
   * replicas must have validly signed the proposal in the decision's view (each signature covers
   * its view, so a certificate cannot mix views).
   */
  Optional<String> decisionReason(Decision decision) {
    if (decision.proposal() == null || decision.digest() == null) {
      return Optional.of("bad decision: null field");
    }
    Digest actual = digest(decision.proposal());
    if (!actual.equals(decision.digest())) {
      return Optional.of(
          "bad decision: digest is " + decision.digest() + " but the proposal hashes to " + actual);
    }
    Set<Integer> signers = new HashSet<>();
    for (CommitSignature signature : decision.certificate()) {
      int replica = signature.replica();
      if (!isReplica(replica)
          || signature.signature() == null
          || !signer.verifyProposalSignature(
              replica, decision.view(), decision.proposal(), signature.signature())) {
        return Optional.of(
            "bad decision: invalid commit signature of "
                + replica
                + " at "
                + decision.sequence()
                + " in view "
                + decision.view());
      }
      signers.add(replica);
    }
    return signers.size() >= quorums.quorum()
        ? Optional.empty()
        : Optional.of(
            "bad decision: "
                + signers.size()
                + " signers at "
                + decision.sequence()
                + " but a quorum is "
                + quorums.quorum());
  }

  private Optional<String> newViewShapeReason(NewView newView) {
    if (newView.signature() == null) {
      return Optional.of("malformed: new view with a null field");
    }
    if (newView.view() < 1 || newView.sender() != primary(newView.view())) {
      return Optional.of("not primary: new view " + newView.view() + " from " + newView.sender());
    }
    return crypto.verify(
            newView.sender(),
            SignedBytes.newView(epoch, newView.view(), newView.reproposals()),
            newView.signature())
        ? Optional.empty()
        : Optional.of("bad signature: new view " + newView.view());
  }

  private Optional<String> voteSignatureReason(
      long view, long sequence, Digest digest, int sender, byte[] signature) {
    if (sequence <= epoch.sequence()) {
      return Optional.of(
          "malformed: sequence "
              + sequence
              + " at or below the epoch's anchor "
              + epoch.sequence());
    }
    return crypto.verify(sender, SignedBytes.prepareVote(epoch, view, sequence, digest), signature)
        ? Optional.empty()
        : Optional.of("bad signature: vote of " + sender + " at " + sequence + " in view " + view);
  }

  private Digest digest(Proposal proposal) {
    return new Digest(crypto.digest(SignedBytes.proposal(proposal)));
  }

  private int primary(long view) {
    return (int) (view % config.replicas());
  }

  private boolean isReplica(int id) {
    return id >= 0 && id < config.replicas();
  }
}
