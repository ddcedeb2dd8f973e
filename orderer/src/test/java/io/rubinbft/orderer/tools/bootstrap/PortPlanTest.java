package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortPlanTest {

  /** Accepted exactly when the four port ranges of n nodes are disjoint TCP ports. */
  @Test
  void acceptsExactlyDisjointRangesOfTcpPorts() {
    long seed = new Random().nextLong();
    System.out.println("PortPlanTest seed " + seed);
    Random random = new Random(seed);
    int accepted = 0;
    for (int round = 0; round < 2_000; round++) {
      int nodes = random.nextInt(1, 9);
      PortPlan plan = new PortPlan(port(random), port(random), port(random), port(random));
      if (disjointAndValid(plan, nodes)) {
        accepted++;
        assertThatCode(() -> plan.check(nodes))
            .as("seed %d: %s x%d", seed, plan, nodes)
            .doesNotThrowAnyException();
      } else {
        assertThatThrownBy(() -> plan.check(nodes))
            .as("seed %d: %s x%d", seed, plan, nodes)
            .isInstanceOf(IllegalArgumentException.class);
      }
    }
    assertThat(accepted).as("seed %d", seed).isBetween(1, 1_999);
  }

  /** Bases near each other and near the top of the port range, so that both outcomes occur. */
  private static int port(Random random) {
    return random.nextBoolean() ? 7_000 + random.nextInt(40) : 65_530 + random.nextInt(8);
  }

  private static boolean disjointAndValid(PortPlan plan, int nodes) {
    Set<Integer> used = new HashSet<>();
    for (int base : new int[] {plan.broadcast(), plan.cluster(), plan.admin(), plan.operations()}) {
      for (int port = base; port < base + nodes; port++) {
        if (port > 65_535 || !used.add(port)) {
          return false;
        }
      }
    }
    return true;
  }
}
