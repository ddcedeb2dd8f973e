package io.rubinbft.bft.protocol;

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
 * the highest stable checkpoint h among them; for each sequence after h take the prepared
 * certificate of the highest view; keep the longest prefix in which each proposal chains to the one
 * before. Beyond the first gap nothing is re-proposed: a correct replica signs a commit at sequence
 * k only after signing k - 1 with the digest k chains to, so anything that may have gathered a
 * quorum of commit signatures lies inside that prefix. Pure; no replica state.
 */
public final class NewViewComputation {

  /** The outcome: the new low watermark with its proof, and the certificates to re-propose. */
  public record Result(
      long low, Digest lowDigest, List<Checkpoint> lowProof, List<PreparedCertificate> prefix) {}

  private NewViewComputation() {}

  public static Result compute(List<ViewChange> viewChanges, int window) {
    ViewChange highest = viewChanges.getFirst();
    for (ViewChange viewChange : viewChanges) {
      if (viewChange.stableSequence() > highest.stableSequence()) {
        highest = viewChange;
      }
    }
    Map<Long, PreparedCertificate> best = bestCertificates(viewChanges);
    List<PreparedCertificate> prefix = new ArrayList<>();
    Digest previous = highest.stableDigest();
    long end = highest.stableSequence() + window;
    for (long sequence = highest.stableSequence() + 1; sequence <= end; sequence++) {
      PreparedCertificate certificate = best.get(sequence);
      if (certificate == null || !certificate.prePrepare().proposal().previous().equals(previous)) {
        break;
      }
      prefix.add(certificate);
      previous = certificate.prePrepare().digest();
    }
    return new Result(
        highest.stableSequence(), highest.stableDigest(), highest.stableProof(), prefix);
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
