package io.rubinbft.bft.sim;

import java.util.Random;
import java.util.Set;

/**
 * One seed of the sweep: a random fault mix for {@link #FAULT_TICKS} ticks while clients submit,
 * then the faults stop (network healed and reliable, crashed replicas restarted; Byzantine ones, at
 * most f, go on) and every request must be decided within {@link #LIVENESS_BOUND_TICKS}. Every
 * third seed runs with a window counted in bytes that binds ({@link Cluster#windowBytesConfig}).
 */
public final class SweepRun {

  public static final int FAULT_TICKS = 300;
  public static final long LIVENESS_BOUND_TICKS = 4000;

  /** What a seed ran and how long the cluster took to decide everything once faults stopped. */
  public record Outcome(
      long seed, int replicas, FaultMix mix, String byzantine, long ticksToDecide) {}

  private SweepRun() {}

  public static Outcome run(long seed) {
    Random random = new Random(seed * 0x9E3779B97F4A7C15L + 17);
    int replicas = random.nextInt(5) == 0 ? 7 : 4;
    FaultMix mix = FaultMix.values()[random.nextInt(FaultMix.values().length)];
    Cluster cluster =
        Cluster.of(
            replicas,
            seed,
            seed % 3 == 0 ? Cluster.windowBytesConfig(replicas) : Cluster.simConfig(replicas));
    String byzantine = addByzantine(cluster, mix, random);
    boolean lossy = mix == FaultMix.LOSSY || mix == FaultMix.EVERYTHING;
    boolean partitions = mix == FaultMix.PARTITIONS || mix == FaultMix.EVERYTHING;
    boolean crashes = mix == FaultMix.CRASHES || mix == FaultMix.EVERYTHING;
    if (lossy) {
      cluster.faults(
          0.02 + 0.2 * random.nextDouble(), 0.1 * random.nextDouble(), 1 + random.nextInt(20));
    } else {
      cluster.faults(0, 0, 1 + random.nextInt(3));
    }
    if (crashes) {
      cluster.storageFaults(0.01 * random.nextDouble());
    }
    for (int tick = 0; tick < FAULT_TICKS; tick++) {
      if (random.nextInt(10) == 0) {
        cluster.submit(1 + random.nextInt(6));
      }
      if (partitions && random.nextInt(40) == 0) {
        partition(cluster, random);
      }
      if (crashes && random.nextInt(30) == 0) {
        crashOrRestart(cluster, random);
      }
      cluster.runTicks(1);
    }
    cluster.submit(3);
    cluster.heal();
    cluster.faults(0, 0, 2);
    cluster.storageFaults(0);
    for (int replica = 0; replica < replicas; replica++) {
      cluster.restart(replica);
    }
    long ticks = cluster.runUntilAllDecided(LIVENESS_BOUND_TICKS);
    return new Outcome(seed, replicas, mix, byzantine, ticks);
  }

  private static String addByzantine(Cluster cluster, FaultMix mix, Random random) {
    if (mix != FaultMix.BYZANTINE && mix != FaultMix.EVERYTHING) {
      return "none";
    }
    int f = (cluster.size() - 1) / 3;
    int count = 1 + random.nextInt(f);
    StringBuilder description = new StringBuilder();
    for (int i = 0; i < count; i++) {
      int replica = random.nextInt(cluster.size());
      Set<Attack> attacks = Attack.draw(random);
      cluster.makeByzantine(replica, attacks);
      description.append(replica).append(attacks);
    }
    return description.toString();
  }

  private static void partition(Cluster cluster, Random random) {
    switch (random.nextInt(4)) {
      case 0 -> cluster.isolate(random.nextInt(cluster.size()));
      case 1 -> cluster.cut(random.nextInt(cluster.size()), random.nextInt(cluster.size()));
      case 2 -> {
        for (int from = 0; from < cluster.size() / 2; from++) {
          for (int to = cluster.size() / 2; to < cluster.size(); to++) {
            cluster.cut(from, to);
            cluster.cut(to, from);
          }
        }
      }
      default -> cluster.heal();
    }
  }

  private static void crashOrRestart(Cluster cluster, Random random) {
    int replica = random.nextInt(cluster.size());
    if (cluster.isUp(replica)) {
      cluster.crash(replica);
    } else {
      cluster.restart(replica);
    }
  }
}
