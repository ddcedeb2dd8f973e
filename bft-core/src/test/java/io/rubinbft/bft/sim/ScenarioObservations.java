package io.rubinbft.bft.sim;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Commit;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the nodes of one {@link ScenarioRunner} run signed and decided: the view of every commit
 * signature emitted (for the one-view check), the signers per sequence and digest (how close a fork
 * came), and per node its decisions and latest commit per sequence (the abstract state a search
 * deduplicates on, and the trace a replay prints).
 */
final class ScenarioObservations {

  private record SignatureKey(int signer, ByteBuffer signature) {}

  private final List<Set<RequestId>> decidedIds = new ArrayList<>();
  private final List<Map<Long, Digest>> decisions = new ArrayList<>();
  private final List<Map<Long, long[]>> lastSigned = new ArrayList<>();
  private final Map<SignatureKey, Long> commitViews = new HashMap<>();
  private final Map<Digest, Integer> digestIds = new HashMap<>();
  private final Map<Long, Map<Digest, Set<Integer>>> signers = new HashMap<>();

  ScenarioObservations(int nodes) {
    for (int node = 0; node < nodes; node++) {
      decidedIds.add(new HashSet<>());
      decisions.add(new TreeMap<>());
      lastSigned.add(new TreeMap<>());
    }
  }

  /** Node {@code node} emitted {@code commit} (retransmissions carry the same signature). */
  void commitEmitted(int node, Commit commit) {
    signers
        .computeIfAbsent(commit.sequence(), q -> new HashMap<>())
        .computeIfAbsent(commit.digest(), d -> new HashSet<>())
        .add(commit.sender());
    if (commitViews.putIfAbsent(
            new SignatureKey(commit.sender(), ByteBuffer.wrap(commit.signature())), commit.view())
        == null) {
      lastSigned
          .get(node)
          .put(commit.sequence(), new long[] {commit.view(), digestId(commit.digest())});
    }
  }

  void decided(int node, Decision decision) {
    decisions.get(node).put(decision.sequence(), decision.digest());
    decision.proposal().requests().forEach(r -> decidedIds.get(node).add(r.id()));
  }

  boolean hasDecided(int node, RequestId id) {
    return decidedIds.get(node).contains(id);
  }

  int decidedRequests(int node) {
    return decidedIds.get(node).size();
  }

  /** The views of the commits whose signatures a certificate holds. */
  Set<Long> certificateViews(Decision decision) {
    Set<Long> views = new TreeSet<>();
    for (CommitSignature signature : decision.certificate()) {
      Long view =
          commitViews.get(
              new SignatureKey(signature.replica(), ByteBuffer.wrap(signature.signature())));
      if (view != null) {
        views.add(view);
      }
    }
    return views;
  }

  /**
   * How close the run came to a fork: at the worst sequence, the signers of the runner-up digest
   * (weighted) plus those of the leading one, counted only up to one more than the runner-up's (a
   * leader far ahead is a decision, not a fork in the making). A quorum behind each of two digests
   * is a fork.
   */
  long danger() {
    long worst = 0;
    for (Map<Digest, Set<Integer>> bySequence : signers.values()) {
      List<Integer> counts =
          bySequence.values().stream().map(Set::size).sorted((a, b) -> b - a).toList();
      long runnerUp = counts.size() > 1 ? counts.get(1) : 0;
      long score = 10L * runnerUp + Math.min(counts.get(0), runnerUp + 1);
      worst = Math.max(worst, score);
    }
    return worst;
  }

  /**
   * The abstract state, with digests and views renamed by first appearance so that runs that differ
   * only in names meet: per node (status null: down) its view relative to {@code lastView}, whether
   * installed, what it decided and the latest commit it signed per sequence.
   */
  String state(ReplicaStatus[] statuses, long lastView) {
    Map<Long, Integer> viewRank = new TreeMap<>();
    lastSigned.forEach(m -> m.values().forEach(s -> viewRank.put(s[0], 0)));
    int rank = 0;
    for (Map.Entry<Long, Integer> e : viewRank.entrySet()) {
      e.setValue(rank++);
    }
    Map<Integer, Integer> names = new LinkedHashMap<>();
    StringBuilder b = new StringBuilder();
    for (int node = 0; node < statuses.length; node++) {
      b.append('|');
      ReplicaStatus status = statuses[node];
      if (status == null) {
        b.append("down");
        continue;
      }
      b.append(Math.max(-4, Math.min(4, status.view() - lastView)))
          .append(status.viewInstalled() ? 'i' : 'c')
          .append(" d");
      for (Map.Entry<Long, Digest> d : decisions.get(node).entrySet()) {
        b.append(d.getKey()).append(':').append(name(names, digestId(d.getValue()))).append(',');
      }
      b.append(" s");
      for (Map.Entry<Long, long[]> s : lastSigned.get(node).entrySet()) {
        b.append(s.getKey())
            .append(':')
            .append(viewRank.get(s.getValue()[0]))
            .append('/')
            .append(name(names, (int) s.getValue()[1]))
            .append(',');
      }
    }
    return b.toString();
  }

  /** For a replay: each node's view, decided sequences and latest commit per sequence. */
  String summary(ReplicaStatus[] statuses) {
    StringBuilder b = new StringBuilder();
    for (int node = 0; node < statuses.length; node++) {
      b.append(node == Scenario.TWIN_NODE ? " twin" : " r" + node).append('=');
      ReplicaStatus status = statuses[node];
      if (status == null) {
        b.append("down");
        continue;
      }
      b.append('v').append(status.view()).append(status.viewInstalled() ? "" : "?");
      b.append(" decided ").append(decisions.get(node).keySet());
      b.append(" signed {");
      lastSigned
          .get(node)
          .forEach(
              (seq, s) ->
                  b.append(seq).append("@v").append(s[0]).append(":d").append(s[1]).append(' '));
      b.append('}');
    }
    return b.toString();
  }

  private int digestId(Digest digest) {
    return digestIds.computeIfAbsent(digest, d -> digestIds.size());
  }

  private static int name(Map<Integer, Integer> names, int id) {
    return names.computeIfAbsent(id, k -> names.size());
  }
}
