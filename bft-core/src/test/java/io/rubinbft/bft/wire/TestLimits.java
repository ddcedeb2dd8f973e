package io.rubinbft.bft.wire;

import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.Decisions;

/** Small limits, so random values reach every limit often and tests stay fast. */
final class TestLimits {

  /** 4 replicas, 5 requests of 64 bytes in 200 batch bytes, window 4, payload 64, signature 80. */
  static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          4, 0, 5, 200, 2, 4, 2, 10, 64, 10, 10, 5, 4, 10, Decisions.MAX_ANSWER_BYTES);

  static final WireLimits LIMITS = WireLimits.of(CONFIG, 64, 80);

  private TestLimits() {}
}
