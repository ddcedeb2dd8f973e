package io.rubinbft.bft.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * The simulated replica network: seeded drops, duplicates and delays (which reorder), and directed
 * link cuts, so partitions can be asymmetric. Time is in ticks. It carries {@code T}: bare messages
 * within one replica set, or messages framed with their epoch between hosts.
 */
final class SimNetwork<T> {

  record InFlight<T>(long at, long order, int from, int to, T message) {}

  private final PriorityQueue<InFlight<T>> queue =
      new PriorityQueue<>(
          Comparator.<InFlight<T>>comparingLong(InFlight::at).thenComparingLong(InFlight::order));
  private final Random random;
  private final boolean[][] cut;
  private long order;
  private double dropRate;
  private double duplicateRate;
  private int maxDelay = 1;

  SimNetwork(int nodes, Random random) {
    this.random = random;
    this.cut = new boolean[nodes][nodes];
  }

  void faults(double drop, double duplicate, int delay) {
    this.dropRate = drop;
    this.duplicateRate = duplicate;
    this.maxDelay = Math.max(1, delay);
  }

  /** Messages from {@code from} to {@code to} are lost until healed (one direction only). */
  void cut(int from, int to) {
    cut[from][to] = true;
  }

  void isolate(int replica) {
    for (int other = 0; other < cut.length; other++) {
      cut[replica][other] = true;
      cut[other][replica] = true;
    }
  }

  void heal() {
    for (boolean[] row : cut) {
      Arrays.fill(row, false);
    }
  }

  void send(long now, int from, int to, T message) {
    if (cut[from][to] || random.nextDouble() < dropRate) {
      return;
    }
    enqueue(now, from, to, message);
    if (random.nextDouble() < duplicateRate) {
      enqueue(now, from, to, message);
    }
  }

  private void enqueue(long now, int from, int to, T message) {
    long at = now + 1 + random.nextInt(maxDelay);
    queue.add(new InFlight<>(at, order++, from, to, message));
  }

  /** The messages due by {@code now}, in delivery order; cut links lose them on arrival too. */
  List<InFlight<T>> due(long now) {
    List<InFlight<T>> due = new ArrayList<>();
    while (!queue.isEmpty() && queue.peek().at() <= now) {
      InFlight<T> next = queue.poll();
      if (!cut[next.from()][next.to()]) {
        due.add(next);
      }
    }
    return due;
  }
}
