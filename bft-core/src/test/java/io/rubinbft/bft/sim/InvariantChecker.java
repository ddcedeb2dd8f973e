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
import java.util.Map;
import java.util.Set;

/**
 * The safety invariants, checked as each event happens: (1) correct replicas agree on every
 * sequence; (2) no two different proposals at one sequence gather a quorum of valid commit
 * signatures, counting every signature any replica (Byzantine ones included) ever emitted; (3) each
 * correct replica delivers gap-free and in order; (5) no request is decided at two sequences.
 * Liveness (4) is checked by {@link Cluster#runUntilAllDecided}.
 */
final class InvariantChecker {

  private final SimKeys keys;
  private final Quorums quorums;
  private final long[] lastDelivered;
  private final Map<Long, Digest> decided = new HashMap<>();
  private final Map<RequestId, Long> requestSequence = new HashMap<>();
  private final Map<Long, Map<Digest, Set<Integer>>> commitSigners = new HashMap<>();

  /** Checks replicas that all start after sequence {@code start} (0, or their epoch's anchor). */
  InvariantChecker(int replicas, SimKeys keys, long start) {
    this.keys = keys;
    this.quorums = new Quorums(replicas);
    this.lastDelivered = new long[replicas];
    Arrays.fill(lastDelivered, start);
  }

  void onDecision(int replica, Decision decision) {
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
      signatureSeen(sequence, decision.digest(), signature.replica(), signature.signature());
    }
  }

  /** Every commit any replica emits, before the network touches it. */
  void onCommitEmitted(Commit commit) {
    signatureSeen(commit.sequence(), commit.digest(), commit.sender(), commit.signature());
  }

  /** Watermarks (OSDI'99 section 4.3): a correct primary proposes only inside (h, h + L]. */
  void onPrePrepareEmitted(PrePrepare prePrepare, ReplicaStatus sender) {
    if (prePrepare.sequence() <= sender.lowWatermark()
        || prePrepare.sequence() > sender.highWatermark()) {
      throw new InvariantViolation(
          "watermarks: pre-prepare at "
              + prePrepare.sequence()
              + " outside ("
              + sender.lowWatermark()
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

  private void signatureSeen(long sequence, Digest digest, int signer, byte[] signature) {
    if (!keys.verifyCommit(signer, digest, signature)) {
      return;
    }
    Map<Digest, Set<Integer>> byDigest =
        commitSigners.computeIfAbsent(sequence, s -> new HashMap<>());
    byDigest.computeIfAbsent(digest, d -> new HashSet<>()).add(signer);
    long certified = byDigest.values().stream().filter(s -> s.size() >= quorums.quorum()).count();
    if (certified > 1) {
      throw new InvariantViolation(
          "(2) unique certificate: two proposals at "
              + sequence
              + " each hold a quorum of valid commit signatures: "
              + byDigest);
    }
  }
}
