package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.NodeMemory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node-wide "broadcast" check seen over HTTP, as a probe sees it: a node started with Fabric's
 * Broadcast throttling ({@code General.Throttling.Rate}) answers {@code /healthz} 200 while its
 * throttle refills the budgets, and 503 naming "broadcast" and why once the refilling thread ended
 * (here its clock failed), since every throttled client would then wait for ever. The Helm chart's
 * probes, which leave out only "channels", fail too.
 */
class BroadcastHealthNodeTest {

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void aThrottleWhoseRefillsStoppedFailsTheBroadcastCheck() throws Exception {
    cluster = LocalCluster.generate(dir);
    StoppableClock clock = new StoppableClock();
    OrdererNode node =
        cluster.startFirst(
            NodeMemory.standard(), Map.of("ORDERER_GENERAL_THROTTLING_RATE", "100"), clock);

    HttpResponse<String> healthy = LocalCluster.healthz(node, "");
    assertThat(healthy.statusCode()).as(healthy.body()).isEqualTo(200);

    clock.stop();
    HttpResponse<String> failed = LocalCluster.awaitFailedCheck(node, "broadcast");
    assertThat(failed.body())
        .contains(
            "{\"component\":\"broadcast\",\"reason\":\"throttle refills stopped:"
                + " java.lang.IllegalStateException: the clock was stopped\"}");
    HttpResponse<String> probed = LocalCluster.healthz(node, "?exclude=channels");
    assertThat(probed.statusCode()).as(probed.body()).isEqualTo(503);
    assertThat(probed.body()).contains("\"component\":\"broadcast\"");
  }

  /** The system clock until {@link #stop}; from then on every reading fails. */
  private static final class StoppableClock extends Clock {

    private volatile boolean stopped;

    void stop() {
      stopped = true;
    }

    @Override
    public ZoneId getZone() {
      return Clock.systemUTC().getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      if (stopped) {
        throw new IllegalStateException("the clock was stopped");
      }
      return Clock.systemUTC().instant();
    }
  }
}
