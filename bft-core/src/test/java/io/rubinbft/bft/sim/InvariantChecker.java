package io.rubinbft.bft.sim;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The safety invariants, checked as each event happens: (1) correct replicas agree on every
 * sequence; (2) no two different proposals at one sequence gather a quorum of valid commit
 * signatures of one view (a certificate: commit signatures cover their view, so only signatures of
 * one view can stand together in a block), counting every signature any replica (Byzantine ones
 * included) ever emitted, in any view and epoch; (3) each correct replica delivers gap-free and in
 * order; (5) no request is decided at two sequences. Liveness (4) is checked by {@link
 * Cluster#runUntilAllDecided}.
 *
 * <p>Replicas are named by node ids that never change. Invariant (2) counts, at each sequence, the
 * signers among the member set in force there ({@link Rosters}): with reconfiguration that is known
 * only once the sequence before it was executed, and a sequence is checked again then.
 */
final class InvariantChecker {

  /** The node ids whose commit signatures certify a sequence, once known. */
  interface Rosters {
    Optional<List<Integer>> at(long sequence);
  }

  private final SimKeys keys;
  private final Rosters rosters;
  private final long[] lastDelivered;
  private final Map<Long, Digest> decided = new HashMap<>();
  private final Map<RequestId, Long> requestSequence = new HashMap<>();

  /** Per sequence, digest and view: the nodes that validly signed a commit. */
  private final Map<Long, Map<Digest, Map<Long, Set<Integer>>>> commitSigners = new HashMap<>();

  /** Checks nodes that all start after sequence {@code start} (0, or their epoch's anchor). */
  InvariantChecker(int nodes, SimKeys keys, long start, Rosters rosters) {
    this.keys = keys;
    this.rosters = rosters;
    this.lastDelivered = new long[nodes];
    Arrays.fill(lastDelivered, start);
  }

  /** One fixed replica set, node id = replica index. */
  static Rosters fixed(int replicas) {
    Optional<List<Integer>> all = Optional.of(IntStream.range(0, replicas).boxed().toList());
    return sequence -> all;
  }

  /**
   * (6) One view: every signature of {@code decision}'s certificate is a commit signature, in the
   * view the decision names, of the member of {@code members} (the executing node's epoch) whose
   * replica index it claims.
   */
  void checkOneViewSignatures(int node, Decision decision, List<Integer> members) {
    for (CommitSignature signature : decision.certificate()) {
      int index = signature.replica();
      if (index < 0
          || index >= members.size()
          || !keys.verifyCommit(
              members.get(index), decision.view(), decision.digest(), signature.signature())) {
        throw oneViewViolation(
            node,
            decision,
            "a signature of replica " + index + " that is no commit signature of that view");
      }
    }
  }

  /** A (6) one-view violation: {@code node} decided {@code decision} on {@code what}. */
  static InvariantViolation oneViewViolation(int node, Decision decision, String what) {
    return new InvariantViolation(
        "(6) one view: replica "
            + node
            + " decided "
            + decision.digest()
            + " at "
            + decision.sequence()
            + " in view "
            + decision.view()
            + " on "
            + what);
  }

  /**
   * A correct node delivered (executed) {@code decision}; {@code members} maps the certificate's
   * replica indices to node ids (the executing node's epoch).
   */
  void onDecision(int replica, Decision decision, List<Integer> members) {
    long sequence = decision.sequence();
    if (sequence != lastDelivered[replica] + 1) {
      throw new InvariantViolation(
          "(3) in-order delivery: replica "
              + replica
              + " delivered "
              + sequence
              + " after "
              + lastDelivered[replica]);
    }
    lastDelivered[replica] = sequence;
    Digest earlier = decided.putIfAbsent(sequence, decision.digest());
    if (earlier != null && !earlier.equals(decision.digest())) {
      throw new InvariantViolation(
          "(1) agreement: replica "
              + replica
              + " decided "
              + decision.digest()
              + " at "
              + sequence
              + " but another correct replica decided "
              + earlier);
    }
    for (Request request : decision.proposal().requests()) {
      Long other = requestSequence.putIfAbsent(request.id(), sequence);
      if (other != null && other != sequence) {
        throw new InvariantViolation(
            "(5) at most once: request "
                + request.id()
                + " decided at "
                + other
                + " and "
                + sequence);
      }
    }
    for (CommitSignature signature : decision.certificate()) {
      if (signature.replica() >= 0 && signature.replica() < members.size()) {
        signatureSeen(
            sequence,
            decision.digest(),
            decision.view(),
            members.get(signature.replica()),
            signature.signature());
      }
    }
    checkCertificates(sequence + 1);
  }

  /** Every commit any node emits, before the network touches it, by its signer's node id. */
  void onCommitEmitted(int signer, Commit commit) {
    signatureSeen(commit.sequence(), commit.digest(), commit.view(), signer, commit.signature());
  }

  /**
   * Watermarks (OSDI'99 section 4.3): a correct primary proposes only inside (h, h + L]. The
   * pre-prepare leaves after the step that made it, in which h may have moved past it (the proposal
   * was decided and a checkpoint became stable in the same step), so h is the one before the step.
   */
  void onPrePrepareEmitted(PrePrepare prePrepare, long lowBeforeStep, ReplicaStatus sender) {
    if (prePrepare.sequence() <= lowBeforeStep || prePrepare.sequence() > sender.highWatermark()) {
      throw new InvariantViolation(
          "watermarks: pre-prepare at "
              + prePrepare.sequence()
              + " outside ("
              + lowBeforeStep
              + ", "
              + sender.highWatermark()
              + "]");
    }
  }

  /** A restarted replica resumes delivering after what its WAL holds. */
  void onRestart(int replica, long delivered) {
    if (delivered != lastDelivered[replica]) {
      throw new InvariantViolation(
          "(3) in-order delivery: replica "
              + replica
              + " restarted at "
              + delivered
              + " but had delivered "
              + lastDelivered[replica]);
    }
  }

  private void signatureSeen(
      long sequence, Digest digest, long view, int signer, byte[] signature) {
    if (!keys.verifyCommit(signer, view, digest, signature)) {
      return;
    }
    commitSigners
        .computeIfAbsent(sequence, s -> new HashMap<>())
        .computeIfAbsent(digest, d -> new HashMap<>())
        .computeIfAbsent(view, v -> new HashSet<>())
        .add(signer);
    checkCertificates(sequence);
  }

  private void checkCertificates(long sequence) {
    Map<Digest, Map<Long, Set<Integer>>> byDigest = commitSigners.get(sequence);
    Optional<List<Integer>> roster = rosters.at(sequence);
    if (byDigest == null || roster.isEmpty()) {
      return;
    }
    List<Integer> members = roster.get();
    int quorum = new Quorums(members.size()).quorum();
    long certified =
        byDigest.values().stream()
            .filter(
                byView ->
                    byView.values().stream()
                        .anyMatch(
                            signers ->
                                signers.stream().filter(members::contains).count() >= quorum))
            .count();
    if (certified > 1) {
      throw new InvariantViolation(
          "(2) unique certificate: two proposals at "
              + sequence
              + " each hold a quorum of valid commit signatures of members "
              + members
              + " (signers per digest and view): "
              + byDigest);
    }
  }
}
