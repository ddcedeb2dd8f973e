package io.rubinbft.bft.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A primary keeps in flight what the window's bytes hold, not what a window of proposals at the cap
 * would: the orderer's shape for Fabric's 10 MB blocks (64 sequences, a checkpoint at least every
 * 8, one and a half proposals at the cap in bytes), here scaled down to a cap of 1 MiB. Nothing is
 * decided (the backups never answer), so every proposal made stays in flight.
 */
class WindowBytesPrimaryTest {

  private static final int CAP = 1 << 20;
  private static final long WINDOW_BYTES = CAP + CAP / 2;

  private final SimKeys keys = new SimKeys(4, 5);
  private final SimApplication application = new SimApplication();

  /** Small proposals: many in flight, as deep as the window in sequences allows. */
  @Test
  void smallProposalsFillTheWindowInSequences() {
    Replica primary = primary();

    int proposed = submitAndCount(primary, 100, 1_000);

    assertThat(proposed)
        .as(
            "small proposals in flight (replay: ./test.sh -pl bft-core -Dtest=WindowBytesPrimaryTest)")
        .isEqualTo(64);
  }

  /**
   * Large proposals: the primary proposes only while a full batch still fits beside what is in
   * flight. Each request arrives alone and is proposed at once, so each proposal holds one of 200
   * KB: after three (600 KB in flight) a full batch of 1 MiB no longer fits within 1.5 MiB. With
   * the window counted in proposals only, this primary would have proposed all 40.
   */
  @Test
  void largeProposalsStopAtTheWindowsBytes() {
    Replica primary = primary();

    int proposed = submitAndCount(primary, 40, 200_000);

    assertThat(proposed)
        .as(
            "large proposals in flight (replay: ./test.sh -pl bft-core -Dtest=WindowBytesPrimaryTest)")
        .isEqualTo(3);
  }

  private Replica primary() {
    ReplicaConfig config =
        new ReplicaConfig(
            4,
            0,
            4,
            CAP,
            0,
            64,
            8,
            1_000,
            CAP,
            10_000,
            10_000,
            10_000,
            1,
            10_000,
            Decisions.MAX_ANSWER_BYTES,
            WINDOW_BYTES);
    return Replica.start(
        config,
        new ReplicaServices(
            keys.crypto(0), keys.signer(0, new Random(1)), application, application));
  }

  /** Submits {@code count} requests of {@code bytes} each; the pre-prepares the primary sent. */
  private static int submitAndCount(Replica primary, int count, int bytes) {
    int accepted = 0;
    for (int i = 0; i < count; i++) {
      Request request = new Request(new RequestId("c", "r" + i), new byte[bytes]);
      accepted += accepted(primary.step(new Event.ClientRequest(request)));
      accepted += accepted(primary.step(new Event.Tick()));
    }
    for (int tick = 0; tick < 10; tick++) {
      accepted += accepted(primary.step(new Event.Tick()));
    }
    return accepted;
  }

  private static int accepted(Effects effects) {
    return (int) effects.persist().stream().filter(WalRecord.Accepted.class::isInstance).count();
  }
}
