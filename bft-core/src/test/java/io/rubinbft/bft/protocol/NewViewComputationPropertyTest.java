package io.rubinbft.bft.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ViewChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * OSDI'99 section 4.4: the new-view computation against a naive reference that tries every prefix
 * length from the longest down and checks each sequence against all certificates.
 */
class NewViewComputationPropertyTest {

  private static final int WINDOW = 16;

  @Test
  void matchesTheNaiveReference() {
    long seed = Long.getLong("property.seed", 20261121);
    Random random = new Random(seed);
    for (int trial = 0; trial < 5000; trial++) {
      List<ViewChange> viewChanges = randomViewChanges(random);
      NewViewComputation.Result result = NewViewComputation.compute(viewChanges, WINDOW);
      long start = naiveStart(viewChanges);
      assertThat(result.start()).as("seed %d trial %d", seed, trial).isEqualTo(start);
      assertThat(result.prefix())
          .as("seed %d trial %d", seed, trial)
          .isEqualTo(naivePrefix(viewChanges, start));
    }
  }

  /**
   * The highest stable checkpoint, unless the highest certified decision lies above it and the
   * re-proposals from the checkpoint do not reach it with its digest: then that decision.
   */
  private static long naiveStart(List<ViewChange> viewChanges) {
    long low = 0;
    Decision decided = null;
    for (ViewChange viewChange : viewChanges) {
      low = Math.max(low, viewChange.stableSequence());
      Decision decision = viewChange.lastDecision();
      if (decision != null && (decided == null || decision.sequence() > decided.sequence())) {
        decided = decision;
      }
    }
    if (decided == null || decided.sequence() <= low) {
      return low;
    }
    for (PreparedCertificate certificate : naivePrefix(viewChanges, low)) {
      if (certificate.sequence() == decided.sequence()
          && certificate.prePrepare().digest().equals(decided.digest())) {
        return low;
      }
    }
    return decided.sequence();
  }

  private static List<PreparedCertificate> naivePrefix(List<ViewChange> viewChanges, long start) {
    for (int length = WINDOW; length >= 0; length--) {
      List<PreparedCertificate> candidate = new ArrayList<>();
      Digest previous = canonical(start);
      boolean valid = true;
      for (long sequence = start + 1; sequence <= start + length && valid; sequence++) {
        PreparedCertificate best = naiveBest(viewChanges, sequence);
        valid = best != null && best.prePrepare().proposal().previous().equals(previous);
        if (valid) {
          candidate.add(best);
          previous = best.prePrepare().digest();
        }
      }
      if (valid) {
        return candidate;
      }
    }
    throw new AssertionError("the empty prefix is always valid");
  }

  private static PreparedCertificate naiveBest(List<ViewChange> viewChanges, long sequence) {
    PreparedCertificate best = null;
    for (ViewChange viewChange : viewChanges) {
      for (PreparedCertificate certificate : viewChange.prepared()) {
        if (certificate.sequence() != sequence) {
          continue;
        }
        boolean better =
            best == null
                || certificate.view() > best.view()
                || (certificate.view() == best.view()
                    && Arrays.compare(
                            certificate.prePrepare().digest().bytes(),
                            best.prePrepare().digest().bytes())
                        > 0);
        if (better) {
          best = certificate;
        }
      }
    }
    return best;
  }

  private static List<ViewChange> randomViewChanges(Random random) {
    List<ViewChange> viewChanges = new ArrayList<>();
    for (int sender = 0; sender < 3; sender++) {
      long stable = 4L * random.nextInt(3);
      Decision decision = null;
      long decided = stable;
      if (random.nextBoolean()) {
        decided = stable + 1 + random.nextInt(6);
        Proposal proposal = proposal(decided, canonical(decided - 1));
        decision = new Decision(proposal, canonical(decided), 0, List.of());
      }
      List<PreparedCertificate> certificates = new ArrayList<>();
      long from = random.nextBoolean() ? stable : decided;
      for (long sequence = from + 1; sequence <= stable + WINDOW; sequence++) {
        if (random.nextInt(4) != 0) {
          certificates.add(certificate(random, sequence));
        }
      }
      viewChanges.add(
          new ViewChange(
              5,
              stable,
              canonical(stable),
              List.of(),
              decision,
              certificates,
              sender,
              new byte[1]));
    }
    return viewChanges;
  }

  /** Usually the canonical chain; sometimes another digest, or a break in the chain. */
  private static PreparedCertificate certificate(Random random, long sequence) {
    int kind = random.nextInt(6);
    Digest digest = kind == 0 ? other(sequence, random.nextInt(3)) : canonical(sequence);
    Digest previous = kind == 1 ? other(sequence - 1, random.nextInt(3)) : canonical(sequence - 1);
    Proposal proposal = proposal(sequence, previous);
    PrePrepare prePrepare =
        new PrePrepare(random.nextInt(5), sequence, digest, proposal, 0, new byte[1]);
    return new PreparedCertificate(prePrepare, List.of());
  }

  private static Proposal proposal(long sequence, Digest previous) {
    return new Proposal(sequence, previous, List.of(), new byte[0]);
  }

  private static Digest canonical(long sequence) {
    return sequence == 0 ? Digest.GENESIS : digest(sequence, 0);
  }

  private static Digest other(long sequence, int variant) {
    return digest(sequence, variant + 1);
  }

  private static Digest digest(long sequence, int variant) {
    byte[] bytes = new byte[32];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (sequence >>> (8 * i));
    }
    bytes[8] = (byte) variant;
    return new Digest(bytes);
  }
}
