package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Fabric's deliver metrics. This orderer serves whole blocks only, so {@code filtered} is always
 * "false" and {@code data_type} always "block"; the labels stay so Fabric's dashboards work.
 */
public final class DeliverMetrics {

  private static final String FILTERED = "false";
  private static final String DATA_TYPE = "block";

  private final Counter streamsOpened;
  private final Counter streamsClosed;
  private final Counter requestsReceived;
  private final Counter requestsCompleted;
  private final Counter blocksSent;

  public DeliverMetrics(PrometheusRegistry registry) {
    streamsOpened =
        Counter.builder()
            .name("deliver_streams_opened")
            .help("The number of GRPC streams that have been opened for the deliver service.")
            .register(registry);
    streamsClosed =
        Counter.builder()
            .name("deliver_streams_closed")
            .help("The number of GRPC streams that have been closed for the deliver service.")
            .register(registry);
    requestsReceived =
        Counter.builder()
            .name("deliver_requests_received")
            .help("The number of deliver requests that have been received.")
            .labelNames("channel", "filtered", "data_type")
            .register(registry);
    requestsCompleted =
        Counter.builder()
            .name("deliver_requests_completed")
            .help("The number of deliver requests that have been completed.")
            .labelNames("channel", "filtered", "data_type", "success")
            .register(registry);
    blocksSent =
        Counter.builder()
            .name("deliver_blocks_sent")
            .help("The number of blocks sent by the deliver service.")
            .labelNames("channel", "filtered", "data_type")
            .register(registry);
  }

  public void streamOpened() {
    streamsOpened.inc();
  }

  public void streamClosed() {
    streamsClosed.inc();
  }

  /** A seek request that passed validation on a channel this node serves. */
  public void requestReceived(String channel) {
    requestsReceived.labelValues(channel, FILTERED, DATA_TYPE).inc();
  }

  /** The request got its final status; {@code success} when that was SUCCESS. */
  public void requestCompleted(String channel, boolean success) {
    requestsCompleted.labelValues(channel, FILTERED, DATA_TYPE, Boolean.toString(success)).inc();
  }

  public void blockSent(String channel) {
    blocksSent.labelValues(channel, FILTERED, DATA_TYPE).inc();
  }
}
