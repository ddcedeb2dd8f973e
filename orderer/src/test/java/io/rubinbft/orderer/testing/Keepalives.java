package io.rubinbft.orderer.testing;

import io.rubinbft.orderer.config.KeepaliveSettings;
import java.time.Duration;

/** gRPC keepalive for test listeners. */
public final class Keepalives {

  /**
   * Fabric's defaults (comm.DefaultKeepaliveOptions), which orderer.yaml's General.Keepalive has.
   */
  public static final KeepaliveSettings FABRIC_DEFAULTS =
      new KeepaliveSettings(Duration.ofSeconds(60), Duration.ofHours(2), Duration.ofSeconds(20));

  private Keepalives() {}
}
