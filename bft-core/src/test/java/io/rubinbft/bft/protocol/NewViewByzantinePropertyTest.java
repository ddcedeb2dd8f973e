package io.rubinbft.bft.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.sim.SimKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * OSDI'99 section 4.4, end to end: the boundary check of view changes ({@link MessageValidator})
 * followed by {@link NewViewComputation}, on random sets of view changes in which a Byzantine
 * replica sends forged or malformed parts (bad signatures, too few prepares, a pre-prepare from a
 * non-primary, a certificate from the new view, a proposal that does not hash to its digest, a
 * checkpoint proof or decision without a quorum) or valid lies (hiding certificates, an old
 * checkpoint). The reference knows by construction which view changes are forged, keeps the others,
 * and computes the new view as the paper states it: min-s is the highest stable checkpoint, max-s
 * the highest prepared sequence; each n in (min-s, max-s] gets the digest of its certificate of the
 * highest view. Our changes: as Fabric blocks chain, re-proposal stops at the first n without a
 * certificate or that does not chain, where the paper would propose a null request; and where those
 * re-proposals do not reach the highest certified decision with its digest, the new view starts at
 * that decision instead (it needs no re-proposal) and re-proposes from there.
 */
class NewViewByzantinePropertyTest {

  private static final long SEED = Long.getLong("property.seed", 20261121L);
  private static final int N = 4;
  private static final int QUORUM = 3;
  private static final long NEW_VIEW = 5;
  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          N, 1, 4, 1 << 16, 2, 8, 4, 500, 1024, 60, 20, 8, 64, 10_000, Decisions.MAX_ANSWER_BYTES);

  /** How a Byzantine replica corrupts its view change; each makes it invalid. */
  private enum Forgery {
    VIEW_CHANGE_SIGNATURE,
    PREPARE_SIGNATURE,
    TOO_FEW_PREPARES,
    PRE_PREPARE_FROM_BACKUP,
    CERTIFICATE_FROM_NEW_VIEW,
    DIGEST_OF_ANOTHER_PROPOSAL,
    CHECKPOINT_PROOF_WITHOUT_QUORUM,
    DECISION_WITHOUT_QUORUM
  }

  private final Random random = new Random(SEED);
  private SimKeys keys;
  private Proposal[][] proposals;

  @Test
  void validatedViewChangesGiveThePapersNewView() {
    int compared = 0;
    for (int trial = 0; trial < 3000; trial++) {
      String where = "seed " + SEED + " trial " + trial;
      keys = new SimKeys(N, trial);
      proposals = chains();
      MessageValidator validator =
          new MessageValidator(CONFIG, Epoch.GENESIS, keys.crypto(1), keys.signer(1, random));
      List<ViewChange> all = new ArrayList<>();
      List<ViewChange> honest = new ArrayList<>();
      int byzantine = random.nextInt(N + 1);
      for (int sender = 0; sender < N; sender++) {
        ViewChange viewChange = viewChange(sender, sender == byzantine);
        all.add(viewChange);
        if (sender != byzantine || random.nextBoolean()) {
          honest.add(viewChange);
        } else {
          all.set(
              sender, forge(viewChange, Forgery.values()[random.nextInt(Forgery.values().length)]));
        }
      }
      List<ViewChange> accepted =
          all.stream().filter(v -> validator.invalidReason(v.sender(), v).isEmpty()).toList();
      assertThat(accepted).as(where).isEqualTo(honest);
      if (accepted.size() >= QUORUM) {
        List<ViewChange> quorum =
            accepted.subList(0, QUORUM + random.nextInt(accepted.size() - QUORUM + 1));
        NewViewComputation.Result result = NewViewComputation.compute(quorum, CONFIG.window());
        long start = start(quorum);
        assertThat(result.start()).as(where).isEqualTo(start);
        assertThat(result.prefix().stream().map(c -> c.prePrepare().digest()).toList())
            .as(where)
            .isEqualTo(papersReproposals(quorum, start));
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(2000);
  }

  // ---- the reference ----

  private static long start(List<ViewChange> viewChanges) {
    long minS = 0;
    Decision decided = null;
    for (ViewChange viewChange : viewChanges) {
      minS = Math.max(minS, viewChange.stableSequence());
      Decision decision = viewChange.lastDecision();
      if (decision != null && (decided == null || decision.sequence() > decided.sequence())) {
        decided = decision;
      }
    }
    if (decided == null || decided.sequence() <= minS) {
      return minS;
    }
    List<Digest> fromMinS = papersReproposals(viewChanges, minS);
    int at = (int) (decided.sequence() - minS - 1);
    boolean reaches = at < fromMinS.size() && fromMinS.get(at).equals(decided.digest());
    return reaches ? minS : decided.sequence();
  }

  private static List<Digest> papersReproposals(List<ViewChange> viewChanges, long minS) {
    long maxS = minS;
    for (ViewChange viewChange : viewChanges) {
      for (PreparedCertificate certificate : viewChange.prepared()) {
        maxS = Math.max(maxS, certificate.sequence());
      }
    }
    List<PrePrepare> chosen = new ArrayList<>();
    for (long n = minS + 1; n <= maxS; n++) {
      PrePrepare highest = null;
      for (ViewChange viewChange : viewChanges) {
        for (PreparedCertificate certificate : viewChange.prepared()) {
          PrePrepare candidate = certificate.prePrepare();
          if (candidate.sequence() == n && (highest == null || higher(candidate, highest))) {
            highest = candidate;
          }
        }
      }
      chosen.add(highest);
    }
    Digest previous = decidedDigestAt(viewChanges, minS);
    List<Digest> reproposals = new ArrayList<>();
    for (PrePrepare prePrepare : chosen) {
      if (prePrepare == null || !prePrepare.proposal().previous().equals(previous)) {
        break;
      }
      reproposals.add(prePrepare.digest());
      previous = prePrepare.digest();
    }
    return reproposals;
  }

  private static boolean higher(PrePrepare a, PrePrepare b) {
    return a.view() > b.view()
        || (a.view() == b.view() && Arrays.compare(a.digest().bytes(), b.digest().bytes()) > 0);
  }

  private static Digest decidedDigestAt(List<ViewChange> viewChanges, long sequence) {
    for (ViewChange viewChange : viewChanges) {
      if (viewChange.lastDecision() != null && viewChange.lastDecision().sequence() == sequence) {
        return viewChange.lastDecision().digest();
      }
      if (viewChange.stableSequence() == sequence) {
        return viewChange.stableDigest();
      }
    }
    throw new AssertionError("min-s " + sequence + " comes from one of the view changes");
  }

  // ---- the generator ----

  /**
   * Per sequence 0..24, the canonical proposal (index 0, chaining to the canonical one before) and
   * two others: one chaining to the canonical predecessor, one to nothing anyone decided.
   */
  private Proposal[][] chains() {
    Proposal[][] chain = new Proposal[25][];
    Digest previous = Digest.GENESIS;
    for (int sequence = 1; sequence < chain.length; sequence++) {
      Digest stray = SimKeys.digestOf(proposal(sequence, Digest.GENESIS, "stray"));
      chain[sequence] =
          new Proposal[] {
            proposal(sequence, previous, "canonical"),
            proposal(sequence, previous, "other"),
            proposal(sequence, stray, "broken")
          };
      previous = SimKeys.digestOf(chain[sequence][0]);
    }
    return chain;
  }

  private static Proposal proposal(long sequence, Digest previous, String label) {
    return new Proposal(
        sequence, previous, List.of(), (label + sequence).getBytes(StandardCharsets.UTF_8));
  }

  private ViewChange viewChange(int sender, boolean lying) {
    long stable = 4L * random.nextInt(3);
    if (lying && random.nextBoolean()) {
      stable = 0;
    }
    Decision decision = null;
    long decided = stable;
    if (random.nextInt(3) != 0) {
      decided = stable + 1 + random.nextInt(4);
      decision = decision(proposals[(int) decided][0], QUORUM);
    }
    List<PreparedCertificate> prepared = new ArrayList<>();
    // A correct replica keeps the certificates of what it delivered above its stable checkpoint.
    long from = random.nextBoolean() ? stable : decided;
    for (long sequence = from + 1; sequence <= stable + CONFIG.window(); sequence++) {
      if (random.nextInt(lying ? 2 : 5) != 0) {
        int variant = random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0;
        prepared.add(
            certificate(random.nextInt((int) NEW_VIEW), proposals[(int) sequence][variant]));
      }
    }
    return sign(
        new ViewChange(
            NEW_VIEW,
            stable,
            digestAt(stable),
            proof(stable, QUORUM),
            decision,
            prepared,
            sender,
            null));
  }

  private ViewChange forge(ViewChange v, Forgery forgery) {
    return switch (forgery) {
      case VIEW_CHANGE_SIGNATURE ->
          v.withSignature(
              keys.crypto((v.sender() + 1) % N).sign(SignedBytes.viewChange(Epoch.GENESIS, v)));
      case CHECKPOINT_PROOF_WITHOUT_QUORUM ->
          sign(withStable(v, 4, proof(4, QUORUM - 1), null, List.of()));
      case DECISION_WITHOUT_QUORUM ->
          sign(withStable(v, 0, List.of(), decision(proposals[1][0], QUORUM - 1), List.of()));
      default -> sign(withStable(v, 0, List.of(), null, List.of(forgedCertificate(forgery))));
    };
  }

  private ViewChange withStable(
      ViewChange v,
      long stable,
      List<Checkpoint> proof,
      Decision decision,
      List<PreparedCertificate> prepared) {
    return new ViewChange(
        v.newView(), stable, digestAt(stable), proof, decision, prepared, v.sender(), null);
  }

  private PreparedCertificate forgedCertificate(Forgery forgery) {
    Proposal proposal = proposals[1][0];
    Digest digest = SimKeys.digestOf(proposal);
    long view = 2;
    return switch (forgery) {
      case PREPARE_SIGNATURE -> {
        PreparedCertificate real = certificate(view, proposal);
        Prepare first = real.prepares().getFirst();
        Prepare forged =
            new Prepare(view, 1, digest, first.sender(), keys.crypto(2).sign(new byte[] {1}));
        yield new PreparedCertificate(
            real.prePrepare(), List.of(forged, real.prepares().getLast()));
      }
      case TOO_FEW_PREPARES -> {
        PreparedCertificate real = certificate(view, proposal);
        yield new PreparedCertificate(real.prePrepare(), List.of(real.prepares().getFirst()));
      }
      case PRE_PREPARE_FROM_BACKUP ->
          new PreparedCertificate(
              new PrePrepare(view, 1, digest, proposal, 3, vote(3, view, 1, digest)),
              prepares(view, 1, digest));
      case CERTIFICATE_FROM_NEW_VIEW -> certificate(NEW_VIEW, proposal);
      case DIGEST_OF_ANOTHER_PROPOSAL -> {
        Digest other = SimKeys.digestOf(proposals[1][1]);
        yield new PreparedCertificate(
            new PrePrepare(view, 1, other, proposal, 2, vote(2, view, 1, other)),
            prepares(view, 1, other));
      }
      default -> throw new AssertionError(forgery + " is not about a certificate");
    };
  }

  private PreparedCertificate certificate(long view, Proposal proposal) {
    Digest digest = SimKeys.digestOf(proposal);
    int primary = (int) (view % N);
    long sequence = proposal.sequence();
    return new PreparedCertificate(
        new PrePrepare(
            view, sequence, digest, proposal, primary, vote(primary, view, sequence, digest)),
        prepares(view, sequence, digest));
  }

  /** Prepares from the first two backups of {@code view}. */
  private List<Prepare> prepares(long view, long sequence, Digest digest) {
    List<Prepare> prepares = new ArrayList<>();
    for (int replica = 0; replica < N && prepares.size() < QUORUM - 1; replica++) {
      if (replica != view % N) {
        prepares.add(
            new Prepare(view, sequence, digest, replica, vote(replica, view, sequence, digest)));
      }
    }
    return prepares;
  }

  private byte[] vote(int replica, long view, long sequence, Digest digest) {
    return keys.crypto(replica)
        .sign(SignedBytes.prepareVote(Epoch.GENESIS, view, sequence, digest));
  }

  private Decision decision(Proposal proposal, int signers) {
    Digest digest = SimKeys.digestOf(proposal);
    List<CommitSignature> certificate = new ArrayList<>();
    for (int replica = 0; replica < signers; replica++) {
      certificate.add(new CommitSignature(replica, keys.signCommit(replica, 0, digest, replica)));
    }
    return new Decision(proposal, digest, 0, certificate);
  }

  private List<Checkpoint> proof(long sequence, int signers) {
    if (sequence == 0) {
      return List.of();
    }
    Digest digest = digestAt(sequence);
    List<Checkpoint> proof = new ArrayList<>();
    for (int replica = 0; replica < signers; replica++) {
      proof.add(
          new Checkpoint(
              sequence,
              digest,
              replica,
              keys.crypto(replica).sign(SignedBytes.checkpoint(Epoch.GENESIS, sequence, digest))));
    }
    return proof;
  }

  private Digest digestAt(long sequence) {
    return sequence == 0 ? Digest.GENESIS : SimKeys.digestOf(proposals[(int) sequence][0]);
  }

  private ViewChange sign(ViewChange v) {
    return v.withSignature(keys.crypto(v.sender()).sign(SignedBytes.viewChange(Epoch.GENESIS, v)));
  }
}
