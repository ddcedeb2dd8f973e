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
 * What a new view re-proposes (OSDI'99 section 4.4), from a quorum of valid view changes. From the
 * highest stable checkpoint h among them, take for each sequence after it the prepared certificate
 * of the highest view, and keep the longest prefix in which each proposal chains to the one before.
 * Beyond the first gap nothing is re-proposed: a correct replica signs a commit at sequence k only
 * after signing k - 1 with the digest k chains to, so anything that may have gathered a quorum of
 * commit signatures lies inside that prefix.
 *
 * <p>A view change may also carry a certified decision d above h. If the prefix from h reaches d
 * with d's digest, the new view starts at h and re-proposes through d and beyond: replicas that
 * lack (h, d] decide it again, which matters when only a Byzantine replica holds those decisions
 * and answers state transfer with tampered ones. Otherwise it starts at d, re-proposing the prefix
 * from there (decided sequences need no re-proposal: anyone can fetch them with their
 * certificates).
 *
 * <p>Safety: (a) the re-proposals at or below d are the decided proposals, since each proposal
 * commits to its predecessor's digest: the certificate at d has the decided digest, so its proposal
 * is the decided one, whose predecessor's digest is the one the certificate at d - 1 has, and so on
 * down to h + 1; (b) above d the best certificate per sequence and the chain condition at d + 1
 * (the digest at d) are the same as when starting at d, so the re-proposals above d are exactly
 * those of the rule that starts at d. Either way, the result is the rule that starts at the highest
 * certified decision, plus possibly a stretch below it that equals what was decided. Pure; no
 * replica state.
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
    Decision decided = null;
    for (ViewChange viewChange : viewChanges) {
      if (viewChange.stableSequence() > highest.stableSequence()) {
        highest = viewChange;
      }
      Decision decision = viewChange.lastDecision();
      if (decision != null && (decided == null || decision.sequence() > decided.sequence())) {
        decided = decision;
      }
    }
    long low = highest.stableSequence();
    Map<Long, PreparedCertificate> best = bestCertificates(viewChanges);
    List<PreparedCertificate> prefix = prefix(best, low, highest.stableDigest(), window);
    long start = low;
    Digest startDigest = highest.stableDigest();
    if (decided != null && decided.sequence() > low && !reaches(prefix, low, decided)) {
      start = decided.sequence();
      startDigest = decided.digest();
      prefix = prefix(best, start, startDigest, window);
    }
    return new Result(
        low, highest.stableDigest(), highest.stableProof(), start, startDigest, prefix);
  }

  /** The longest chained run of best certificates after {@code start} (whose digest is given). */
  private static List<PreparedCertificate> prefix(
      Map<Long, PreparedCertificate> best, long start, Digest startDigest, int window) {
    List<PreparedCertificate> prefix = new ArrayList<>();
    Digest previous = startDigest;
    for (long sequence = start + 1; sequence <= start + window; sequence++) {
      PreparedCertificate certificate = best.get(sequence);
      if (certificate == null || !certificate.prePrepare().proposal().previous().equals(previous)) {
        break;
      }
      prefix.add(certificate);
      previous = certificate.prePrepare().digest();
    }
    return prefix;
  }

  /** Whether the prefix after {@code low} holds the decided digest at the decision's sequence. */
  private static boolean reaches(List<PreparedCertificate> prefix, long low, Decision decided) {
    int index = (int) (decided.sequence() - low - 1);
    return index < prefix.size()
        && prefix.get(index).prePrepare().digest().equals(decided.digest());
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
