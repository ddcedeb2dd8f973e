package io.rubinbft.bft.sim;

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
  /** Ignores every request of the client "client-0" (censorship as primary). */
  CENSOR,
  /** Answers state-transfer fetches with tampered decisions. */
  LYING_STATE_TRANSFER,
  /** Signs a commit for every proposal it sees, helping any conflicting proposal to a quorum. */
  SIGN_EVERYTHING
}
