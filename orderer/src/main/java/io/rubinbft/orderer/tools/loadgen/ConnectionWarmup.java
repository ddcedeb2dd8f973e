package io.rubinbft.orderer.tools.loadgen;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Connects to every orderer before a run's clock starts. gRPC connects lazily, on a channel's first
 * call: without this, each submitter's first envelopes reach the orderers whose connection (TCP and
 * TLS handshakes) is still being made so late that the others have ordered them already (Fabric's
 * orderers answer such a copy 503 "request already processed", a failed submit), and the run's
 * latency would include the handshakes.
 */
final class ConnectionWarmup {

  private ConnectionWarmup() {}

  /**
   * Waits until every channel is connected or failed to connect (an orderer that is down must not
   * hold up the run: the quorum does without it), or until {@code limit} passed.
   */
  static void connectAll(List<ManagedChannel> channels, Duration limit)
      throws InterruptedException {
    CountDownLatch settled = new CountDownLatch(channels.size());
    for (ManagedChannel channel : channels) {
      watch(channel, settled);
    }
    settled.await(limit.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static void watch(ManagedChannel channel, CountDownLatch settled) {
    ConnectivityState state = channel.getState(true);
    if (state == ConnectivityState.READY
        || state == ConnectivityState.TRANSIENT_FAILURE
        || state == ConnectivityState.SHUTDOWN) {
      settled.countDown();
    } else {
      channel.notifyWhenStateChanged(state, () -> watch(channel, settled));
    }
  }
}
