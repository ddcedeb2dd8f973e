package io.rubinbft.bft.sim;

import org.junit.jupiter.api.Test;

class DebugSeedTest {
  @Test
  void debug() {
    long seed = Long.getLong("dbg.seed", 2393);
    try {
      SweepRun.run(seed);
    } catch (AssertionError e) {
      System.out.println(e.getMessage().substring(0, Math.min(3000, e.getMessage().length())));
    }
  }
}
