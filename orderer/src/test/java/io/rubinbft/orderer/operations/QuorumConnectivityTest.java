package io.rubinbft.orderer.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.operations.QuorumConnectivity.ChannelPeers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The connectivity rule on a clock the test moves: no waiting. */
class QuorumConnectivityTest {

  private static final Duration GRACE = Duration.ofSeconds(30);

  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.EPOCH);
  private final AtomicReference<List<ChannelPeers>> channels =
      new AtomicReference<>(List.of(new ChannelPeers("mychannel", 4, 3)));
  private final QuorumConnectivity check = new QuorumConnectivity(channels::get, now::get, GRACE);

  @Test
  void aChannelConnectedToAQuorumIsHealthy() {
    connected(2);
    later(Duration.ofHours(1));

    assertThat(check.failure()).isEmpty();
  }

  @Test
  void lackingAQuorumFailsOnlyAfterTheGrace() {
    connected(1);
    assertThat(check.failure()).isEmpty();

    later(GRACE);
    assertThat(check.failure()).isEmpty();

    later(Duration.ofSeconds(1));
    assertThat(check.failure())
        .contains("channel 'mychannel': connected to 1 of 3 consenters, a quorum needs 2");
  }

  @Test
  void regainingAQuorumRestartsTheGrace() {
    connected(0);
    check.failure();
    later(GRACE.plusSeconds(1));
    assertThat(check.failure()).isPresent();

    connected(2);
    assertThat(check.failure()).isEmpty();

    connected(1);
    assertThat(check.failure()).isEmpty();
    later(GRACE);
    assertThat(check.failure()).isEmpty();
    later(Duration.ofSeconds(1));
    assertThat(check.failure()).isPresent();
  }

  @Test
  void everyChannelLackingAQuorumIsNamed() {
    channels.set(
        List.of(
            new ChannelPeers("a", 4, 1), new ChannelPeers("b", 7, 4), new ChannelPeers("c", 7, 3)));
    check.failure();
    later(GRACE.plusSeconds(1));

    assertThat(check.failure())
        .contains(
            "channel 'a': connected to 1 of 3 consenters, a quorum needs 2; "
                + "channel 'c': connected to 3 of 6 consenters, a quorum needs 4");
  }

  @Test
  void aSingleConsenterNeedsNoPeers() {
    channels.set(List.of(new ChannelPeers("solo", 1, 0)));
    check.failure();
    later(Duration.ofHours(1));

    assertThat(check.failure()).isEmpty();
  }

  @Test
  void aQuorumOfFiveConsentersNeedsThreePeers() {
    channels.set(List.of(new ChannelPeers("five", 5, 2)));
    check.failure();
    later(GRACE.plusSeconds(1));

    assertThat(check.failure())
        .contains("channel 'five': connected to 2 of 4 consenters, a quorum needs 3");
  }

  private void connected(int peers) {
    channels.set(List.of(new ChannelPeers("mychannel", 4, peers)));
  }

  private void later(Duration duration) {
    now.set(now.get().plus(duration));
  }
}
