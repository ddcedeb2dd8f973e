package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Everything a replica knows about one sequence number. Fields named "view state" belong to the
 * current view and are cleared when it ends; certificates and commit signatures outlive views, but
 * every commit is kept with its view and a decision counts the commits of one view only ({@link
 * #quorumOf}).
 */
final class Slot {

  final long sequence;

  /** View state: the pre-prepare accepted in the current view, and this replica's prepare. */
  @Nullable PrePrepare accepted;

  @Nullable Prepare ownPrepare;

  /** View state: a pre-prepare that arrived before its predecessor was known. */
  @Nullable PrePrepare waiting;

  /** View state: the latest prepare from each backup. */
  final Map<Integer, Prepare> prepares = new HashMap<>();

  /** The prepared certificate of the highest view this replica prepared in. */
  @Nullable PreparedCertificate prepared;

  /** This replica's latest commit (its view says in which view it signed). */
  @Nullable Commit ownCommit;

  /**
   * Commits whose signature was checked against their proposal and view: per replica the one of the
   * highest view it sent here. Commits of different views are never counted together.
   */
  final Map<Integer, Commit> validCommits = new HashMap<>();

  /** Commits whose proposal is not known yet, one (the highest view's) per replica. */
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

  /**
   * Keeps {@code commit} unless this replica already holds one of a higher view from its sender.
   */
  static void keepNewest(Map<Integer, Commit> commits, Commit commit) {
    commits.merge(commit.sender(), commit, (old, neu) -> neu.view() >= old.view() ? neu : old);
  }

  /**
   * A quorum of valid commits for {@code digest} all of one view (the lowest such view), sorted by
   * sender, or an empty list when no view has {@code quorum} of them.
   */
  List<Commit> quorumOf(Digest digest, int quorum) {
    TreeMap<Long, List<Commit>> byView = new TreeMap<>();
    for (Commit commit : validCommits.values()) {
      if (commit.digest().equals(digest)) {
        byView.computeIfAbsent(commit.view(), v -> new ArrayList<>()).add(commit);
      }
    }
    for (List<Commit> commits : byView.values()) {
      if (commits.size() >= quorum) {
        return commits.stream()
            .sorted(Comparator.comparingInt(Commit::sender))
            .limit(quorum)
            .toList();
      }
    }
    return List.of();
  }

  /** The proposal this replica accepted or prepared here (not decided yet), or null. */
  @Nullable Proposal proposalInFlight() {
    if (accepted != null) {
      return accepted.proposal();
    }
    return prepared == null ? null : prepared.prePrepare().proposal();
  }

  /**
   * Request bytes of the proposal bodies this slot holds: the accepted or waiting pre-prepare's,
   * and the prepared one's when it has another digest.
   */
  long heldBytes() {
    long bytes = 0;
    Digest counted = null;
    for (PrePrepare held : new PrePrepare[] {accepted, waiting}) {
      if (held != null) {
        bytes += held.proposal().requestBytes();
        counted = held.digest();
      }
    }
    if (prepared != null && !prepared.prePrepare().digest().equals(counted)) {
      bytes += prepared.prePrepare().proposal().requestBytes();
    }
    return bytes;
  }

  /** The proposal with this digest, if this replica knows it. */
  @Nullable Proposal proposalWith(Digest digest) {
    if (accepted != null && accepted.digest().equals(digest)) {
      return accepted.proposal();
    }
    if (prepared != null && prepared.prePrepare().digest().equals(digest)) {
      return prepared.prePrepare().proposal();
    }
    return null;
  }
}
