package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import java.util.HashMap;
import java.util.Map;

/**
 * Everything a replica knows about one sequence number. Fields named "view state" belong to the
 * current view and are cleared when it ends; certificates and commit signatures outlive views.
 */
final class Slot {

  final long sequence;

  /** View state: the pre-prepare accepted in the current view, and this replica's prepare. */
  PrePrepare accepted;

  Prepare ownPrepare;

  /** View state: a pre-prepare that arrived before its predecessor was known. */
  PrePrepare waiting;

  /** View state: the latest prepare from each backup. */
  final Map<Integer, Prepare> prepares = new HashMap<>();

  /** The prepared certificate of the highest view this replica prepared in. */
  PreparedCertificate prepared;

  /** This replica's latest commit. */
  Commit ownCommit;

  /** Commits whose signature was checked against their proposal, one (the latest) per replica. */
  final Map<Integer, Commit> validCommits = new HashMap<>();

  /** Commits whose proposal is not known yet, one per replica. */
  final Map<Integer, Commit> unverifiedCommits = new HashMap<>();

  Slot(long sequence) {
    this.sequence = sequence;
  }

  void endView() {
    accepted = null;
    ownPrepare = null;
    waiting = null;
    prepares.clear();
  }

  /** The proposal this replica accepted or prepared here (not decided yet), or null. */
  Proposal proposalInFlight() {
    if (accepted != null) {
      return accepted.proposal();
    }
    return prepared == null ? null : prepared.prePrepare().proposal();
  }

  /** The proposal with this digest, if this replica knows it. */
  Proposal proposalWith(Digest digest) {
    if (accepted != null && accepted.digest().equals(digest)) {
      return accepted.proposal();
    }
    if (prepared != null && prepared.prePrepare().digest().equals(digest)) {
      return prepared.prePrepare().proposal();
    }
    return null;
  }
}
