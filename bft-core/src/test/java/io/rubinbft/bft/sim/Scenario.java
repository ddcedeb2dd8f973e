package io.rubinbft.bft.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * One scenario of the {@link ScenarioExplorer}, in the spirit of Twins (Bano et al., OPODIS 2021):
 * four replicas, at most one of them Byzantine ({@link Adversary}; {@link Adversary#TWIN} is a
 * second, correct instance with the same keys), and a list of {@link Round}s, each a view whose
 * primary the round picks and whose messages only some links carry.
 *
 * <p>Its id is compact and replays it exactly: {@code x-...} (no Byzantine replica) or {@code
 * <replica><adversary letter>-...}, then three characters per round: the leader (0-3), the excluded
 * node set and the vote receivers, each a 5-bit node mask in base 32 (bit 4 is the twin).
 */
record Scenario(int byzantine, Adversary adversary, List<Round> rounds) {

  /** The twin's node id; replicas 0-3 are nodes 0-3. */
  static final int TWIN_NODE = 4;

  private static final String DIGITS = "0123456789abcdefghijklmnopqrstuv";

  /** What the Byzantine replica does; {@link #NONE} means every replica is correct. */
  enum Adversary {
    NONE('x'),
    /** A second instance with the same keys (Twins): how an equivocating replica is modelled. */
    TWIN('t'),
    /** Signs a commit for every pre-prepare it is shown. */
    SIGN_EVERYTHING('s'),
    /** Replays messages of earlier views. */
    REPLAY('r'),
    /** Claims a height of 2^40 in a Status every tick (and otherwise behaves). */
    LYING_HEIGHT('h'),
    /** As primary, sends a different proposal to the odd backups. */
    EQUIVOCATE('e'),
    /** Sends its commits to nobody. */
    WITHHOLD_COMMITS('w');

    final char letter;

    Adversary(char letter) {
      this.letter = letter;
    }

    static Adversary of(char letter) {
      for (Adversary a : values()) {
        if (a.letter == letter) {
          return a;
        }
      }
      throw new IllegalArgumentException("no adversary '" + letter + "'");
    }
  }

  /**
   * One view: the first view after the previous round's whose primary is {@code leader}. The nodes
   * in {@code excluded} take no part: the view's view changes, new view and pre-prepares, and all
   * view-less messages while the round lasts, travel only between the other nodes (the group). Its
   * prepares and commits travel from the group only to the nodes in {@code voteReceivers} (all of
   * the group: the ordinary case; one node: it alone can collect a quorum; none: votes lost).
   */
  record Round(int leader, int excluded, int voteReceivers) {

    int group(int nodes) {
      return ((1 << nodes) - 1) & ~excluded;
    }

    String id() {
      return "" + leader + DIGITS.charAt(excluded) + DIGITS.charAt(voteReceivers);
    }
  }

  Scenario {
    rounds = List.copyOf(rounds);
  }

  int nodes() {
    return adversary == Adversary.TWIN ? 5 : 4;
  }

  /** The replica index node {@code node} runs as. */
  int index(int node) {
    return node == TWIN_NODE ? byzantine : node;
  }

  /** The id's part before the rounds: the adversary. */
  String header() {
    return adversary == Adversary.NONE ? "x" : "" + byzantine + adversary.letter;
  }

  String id() {
    StringBuilder b = new StringBuilder();
    b.append(header()).append('-');
    rounds.forEach(r -> b.append(r.id()));
    return b.toString();
  }

  Scenario with(Round round) {
    List<Round> longer = new ArrayList<>(rounds);
    longer.add(round);
    return new Scenario(byzantine, adversary, longer);
  }

  static Scenario parse(String id) {
    int dash = id.indexOf('-');
    String head = id.substring(0, dash);
    String body = id.substring(dash + 1);
    Scenario empty =
        head.equals("x")
            ? new Scenario(-1, Adversary.NONE, List.of())
            : new Scenario(head.charAt(0) - '0', Adversary.of(head.charAt(1)), List.of());
    if (body.length() % 3 != 0) {
      throw new IllegalArgumentException("scenario " + id + ": three characters per round");
    }
    Scenario scenario = empty;
    for (int i = 0; i < body.length(); i += 3) {
      Round round =
          new Round(
              body.charAt(i) - '0',
              DIGITS.indexOf(body.charAt(i + 1)),
              DIGITS.indexOf(body.charAt(i + 2)));
      if (!empty.choices().contains(round)) {
        throw new IllegalArgumentException(
            "scenario " + id + ": round " + round.id() + " is not in the space");
      }
      scenario = scenario.with(round);
    }
    return scenario;
  }

  /** The headers {@code spec} names: "all", or ids such as "x,3t,1s" (see {@link #id()}). */
  static List<Scenario> headers(String spec) {
    if (spec.equals("all")) {
      return headers();
    }
    List<Scenario> named = new ArrayList<>();
    for (String header : spec.split(",", -1)) {
      named.add(parse(header.trim() + "-"));
    }
    return named;
  }

  /** Every header: no Byzantine replica, or one of the four with one adversary. */
  static List<Scenario> headers() {
    List<Scenario> headers = new ArrayList<>();
    headers.add(new Scenario(-1, Adversary.NONE, List.of()));
    for (Adversary adversary : Adversary.values()) {
      if (adversary != Adversary.NONE) {
        for (int replica = 0; replica < 4; replica++) {
          headers.add(new Scenario(replica, adversary, List.of()));
        }
      }
    }
    return headers;
  }

  /**
   * The rounds this scenario's header allows, pruned to those that can install their view: the
   * group holds an instance of the leader and at least three distinct replicas (a quorum), so a
   * view that cannot happen is not enumerated (the next round's leader skips it anyway). Vote
   * receivers: none, the whole group, or one node of it.
   */
  List<Round> choices() {
    int nodes = nodes();
    List<Round> choices = new ArrayList<>();
    for (int leader = 0; leader < 4; leader++) {
      for (int excluded = 0; excluded < (1 << nodes); excluded++) {
        if (Integer.bitCount(excluded) > nodes - 3 || !canInstall(excluded, leader, nodes)) {
          continue;
        }
        int group = ((1 << nodes) - 1) & ~excluded;
        choices.add(new Round(leader, excluded, 0));
        choices.add(new Round(leader, excluded, group));
        for (int node = 0; node < nodes; node++) {
          if ((group & (1 << node)) != 0) {
            choices.add(new Round(leader, excluded, 1 << node));
          }
        }
      }
    }
    return choices;
  }

  private boolean canInstall(int excluded, int leader, int nodes) {
    int replicas = 0;
    boolean leaderIn = false;
    for (int node = 0; node < nodes; node++) {
      if ((excluded & (1 << node)) == 0) {
        replicas |= 1 << index(node);
        leaderIn |= index(node) == leader;
      }
    }
    return leaderIn && Integer.bitCount(replicas) >= 3;
  }
}
