package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ViewChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a new view re-proposes (OSDI'99 section 4.4), from a quorum of valid view changes: start at
 * the highest stable checkpoint h among them, or at the highest certified decision if that is
 * higher (decided sequences need no re-proposal: anyone can fetch them with their commit
 * certificates); for each sequence after the start take the prepared certificate of the highest
 * view; keep the longest prefix in which each proposal chains to the one before. Beyond the first
 * gap nothing is re-proposed: a correct replica signs a commit at sequence k only after signing k -
 * 1 with the digest k chains to, so anything that may have gathered a quorum of commit signatures
 * lies inside that prefix. Pure; no replica state.
 */
public final class NewViewComputation {

  /**
   * The outcome: the highest stable checkpoint with its proof, the sequence the re-proposals follow
   * with its digest, and the certificates to re-propose.
   */
  public record Result(
      long low,
      Digest lowDigest,
      List<Checkpoint> lowProof,
      long start,
      Digest startDigest,
      List<PreparedCertificate> prefix) {}

  private NewViewComputation() {}

  public static Result compute(List<ViewChange> viewChanges, int window) {
    ViewChange highest = viewChanges.getFirst();
    for (ViewChange viewChange : viewChanges) {
      if (viewChange.stableSequence() > highest.stableSequence()) {
        highest = viewChange;
      }
    }
    long start = highest.stableSequence();
    Digest previous = highest.stableDigest();
    for (ViewChange viewChange : viewChanges) {
      Decision decision = viewChange.lastDecision();
      if (decision != null && decision.sequence() > start) {
        start = decision.sequence();
        previous = decision.digest();
      }
    }
    Digest startDigest = previous;
    Map<Long, PreparedCertificate> best = bestCertificates(viewChanges);
    List<PreparedCertificate> prefix = new ArrayList<>();
    for (long sequence = start + 1; sequence <= start + window; sequence++) {
      PreparedCertificate certificate = best.get(sequence);
      if (certificate == null || !certificate.prePrepare().proposal().previous().equals(previous)) {
        break;
      }
      prefix.add(certificate);
      previous = certificate.prePrepare().digest();
    }
    return new Result(
        highest.stableSequence(),
        highest.stableDigest(),
        highest.stableProof(),
        start,
        startDigest,
        prefix);
  }

  /** Per sequence, the certificate of the highest view; ties broken by digest bytes. */
  private static Map<Long, PreparedCertificate> bestCertificates(List<ViewChange> viewChanges) {
    Map<Long, PreparedCertificate> best = new HashMap<>();
    for (ViewChange viewChange : viewChanges) {
      for (PreparedCertificate certificate : viewChange.prepared()) {
        best.merge(certificate.sequence(), certificate, NewViewComputation::higher);
      }
    }
    return best;
  }

  private static PreparedCertificate higher(PreparedCertificate a, PreparedCertificate b) {
    if (a.view() != b.view()) {
      return a.view() > b.view() ? a : b;
    }
    int order = Arrays.compare(a.prePrepare().digest().bytes(), b.prePrepare().digest().bytes());
    return order >= 0 ? a : b;
  }
}
