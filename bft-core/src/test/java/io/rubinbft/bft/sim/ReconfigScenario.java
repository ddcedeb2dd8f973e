package io.rubinbft.bft.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * One scenario of the reconfiguration explorer: the member set goes 4 -> 5 -> 7 -> one of {@link
 * #FINAL_SETS}, and during each of the three switches one node may be cut off (a leader choice or a
 * partition), either from the moment the change is submitted (the old epoch changes views while it
 * orders the change) or from the moment the first correct node executed it (the new epoch starts
 * with a view change, or a node misses the switch and catches up), for a short or a long while.
 *
 * <p>Id: {@code r<final set>-} and three characters per switch: the node cut off ({@code -} none,
 * {@code p} the primary of the newest epoch at that moment, or a node id 0-6), when ({@code a} at
 * the submission, {@code b} at the first switch) and how long ({@code s} short, {@code l} long);
 * {@code ---} for an undisturbed switch. Example: {@code r1-pbs---6al}.
 *
 * @param finalSet index into {@link #FINAL_SETS}
 * @param switches the disturbance of each of the three switches
 */
record ReconfigScenario(int finalSet, List<Disturbance> switches) {

  /** Where the set shrinks to: back to the genesis members, or to the newest nodes only. */
  static final List<List<Integer>> FINAL_SETS = List.of(List.of(0, 1, 2, 3), List.of(3, 4, 5, 6));

  /** The member sets of the three switches' old and new epochs together, per switch. */
  private static final int[] NODES_IN_PLAY = {5, 7, 7};

  /**
   * @param target {@code '-'} none, {@code 'p'} the primary, or a node id {@code '0'..'6'}
   * @param atSwitch cut off when the first correct node executed the change, not at its submission
   * @param lasting whether the cut lasts long (past a view change) or short
   */
  record Disturbance(char target, boolean atSwitch, boolean lasting) {

    static final Disturbance NONE = new Disturbance('-', false, false);

    String id() {
      return target == '-' ? "---" : "" + target + (atSwitch ? 'b' : 'a') + (lasting ? 'l' : 's');
    }

    static Disturbance parse(String id) {
      return id.equals("---")
          ? NONE
          : new Disturbance(id.charAt(0), id.charAt(1) == 'b', id.charAt(2) == 'l');
    }

    /** The choices of a switch where {@code nodes} nodes are in play. */
    static List<Disturbance> choices(int nodes) {
      List<Disturbance> choices = new ArrayList<>();
      choices.add(NONE);
      List<Character> targets = new ArrayList<>();
      targets.add('p');
      for (int node = 0; node < nodes; node++) {
        targets.add((char) ('0' + node));
      }
      for (char target : targets) {
        for (boolean atSwitch : new boolean[] {false, true}) {
          for (boolean lasting : new boolean[] {false, true}) {
            choices.add(new Disturbance(target, atSwitch, lasting));
          }
        }
      }
      return choices;
    }
  }

  ReconfigScenario {
    switches = List.copyOf(switches);
  }

  String id() {
    StringBuilder id = new StringBuilder("r").append(finalSet).append('-');
    switches.forEach(d -> id.append(d.id()));
    return id.toString();
  }

  static ReconfigScenario parse(String id) {
    if (!id.matches("r[01]-([-p0-6][-ab][-sl]){3}")) {
      throw new IllegalArgumentException("not a reconfiguration scenario id: " + id);
    }
    List<Disturbance> switches = new ArrayList<>();
    for (int i = 3; i < id.length(); i += 3) {
      switches.add(Disturbance.parse(id.substring(i, i + 3)));
    }
    return new ReconfigScenario(id.charAt(1) - '0', switches);
  }

  /** How many scenarios there are. */
  static long size() {
    long size = FINAL_SETS.size();
    for (int nodes : NODES_IN_PLAY) {
      size *= Disturbance.choices(nodes).size();
    }
    return size;
  }

  /** Scenario number {@code index} of {@link #size()} (mixed radix, the final set first). */
  static ReconfigScenario at(long index) {
    long rest = index;
    int finalSet = (int) (rest % FINAL_SETS.size());
    rest /= FINAL_SETS.size();
    List<Disturbance> switches = new ArrayList<>();
    for (int nodes : NODES_IN_PLAY) {
      List<Disturbance> choices = Disturbance.choices(nodes);
      switches.add(choices.get((int) (rest % choices.size())));
      rest /= choices.size();
    }
    return new ReconfigScenario(finalSet, switches);
  }
}
