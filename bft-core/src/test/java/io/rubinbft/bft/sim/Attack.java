package io.rubinbft.bft.sim;

import java.util.EnumSet;
import java.util.Random;
import java.util.Set;

/** What a Byzantine replica in the simulator does (it never forges another replica's keys). */
public enum Attack {
  /** Sends nothing. */
  SILENT,
  /** Sends nothing to some replicas. */
  SELECTIVE_SILENCE,
  /** As primary, sends a different proposal to half of the backups. */
  EQUIVOCATE,
  /** Votes, validly signed, for digests that match nothing. */
  WRONG_DIGEST,
  /** Corrupts the signatures on its messages. */
  BAD_SIGNATURES,
  /** Re-sends old messages, including ones from past views. */
  REPLAY,
  /** Asks for random future views, and leaves its prepared certificates out of view changes. */
  BOGUS_VIEW_CHANGE,
  /**
   * Ignores every request of the client "client-0" and every membership change of the client
   * "admin" (censorship as primary).
   */
  CENSOR,
  /** Answers state-transfer fetches with tampered decisions. */
  LYING_STATE_TRANSFER,
  /** Signs a commit for every proposal it sees, helping any conflicting proposal to a quorum. */
  SIGN_EVERYTHING,
  /** Its checkpoints, validly signed, name digests that match nothing. */
  WRONG_CHECKPOINT,
  /** As new primary, leaves a re-proposal out of its new view (re-signed) or a view change. */
  LYING_NEW_VIEW,
  /**
   * Signs its votes, checkpoints and view changes under another epoch's anchor (the previous one,
   * at genesis a made-up one): valid signatures of the wrong epoch.
   */
  STALE_EPOCH,
  /**
   * Its view changes claim the one stable checkpoint that needs no proof, the epoch's anchor, with
   * a digest that is not the anchor's.
   */
  FORGED_ANCHOR,
  /**
   * Reconfiguration only (a host's lie): frames its messages with a newer epoch than its own now
   * and then, claiming a switch nobody made, so that peers try to catch up from it.
   */
  FUTURE_EPOCH,
  /**
   * Reconfiguration only (a host's lie): serves a host that catches up across epochs from it the
   * proposals without their requests, certified by its own commit signature alone.
   */
  LYING_CATCH_UP,
  /**
   * Scenario only (never drawn, so every sweep seed keeps its draw): sends its commits to nobody,
   * so that, with a correct replica cut off, it alone collects commit certificates.
   */
  WITHHOLD_COMMITS,
  /**
   * Scenario only: once a new view is installed, asks for the next one at once with its latest view
   * change re-signed, so that its view change is among the first a quorum of the next new view is
   * built from.
   */
  EAGER_VIEW_CHANGE,
  /**
   * Scenario only: sends nothing of its own protocol, only a {@code Status} claiming a height of
   * 2^40 to every replica every tick, and answers no fetch, so that a lagging replica that trusts a
   * claim keeps asking it.
   */
  STATUS_FLOOD,
  /**
   * Scenario only: besides its correct protocol, asks every replica 32 times a tick for all
   * decisions from the first on, as many as there are ({@code maxCount} {@link Integer#MAX_VALUE}),
   * so that they read their archives for it without end.
   */
  ARCHIVE_FLOOD,
  /**
   * Scenario only: besides its correct protocol, asks every replica 32 times a tick for a proposal
   * body by digest ({@code FetchProposal}), drawn from the latest 32 proposals it has seen named by
   * a pre-prepare or vote of any view, held by the others or not, so that they send it bodies
   * without end.
   */
  BODY_FETCH_FLOOD;

  /** The attacks {@link #draw} picks from: all but the scenario-only last ones. */
  private static final int DRAWN = WITHHOLD_COMMITS.ordinal();

  /** One to three attacks drawn from all but the scenario-only ones. */
  static Set<Attack> draw(Random random) {
    Set<Attack> attacks = EnumSet.noneOf(Attack.class);
    int kinds = 1 + random.nextInt(3);
    for (int k = 0; k < kinds; k++) {
      attacks.add(values()[random.nextInt(DRAWN)]);
    }
    return attacks;
  }
}
