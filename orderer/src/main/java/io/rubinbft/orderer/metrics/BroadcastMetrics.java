package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;

/**
 * Fabric's broadcast metrics, labelled as Fabric labels them: channel, header type and the status
 * answered. A rejected envelope whose channel header could not be read has empty channel and type.
 */
public final class BroadcastMetrics {

  /** Prometheus's default buckets (Fabric's), in seconds, plus finer ones below 5 ms. */
  private static final double[] DURATION_BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private static final double NANOS_PER_SECOND = 1e9;

  private final Counter processed;
  private final Histogram validateDuration;
  private final Histogram enqueueDuration;

  public BroadcastMetrics(PrometheusRegistry registry) {
    String[] labels = {"channel", "type", "status"};
    processed =
        Counter.builder()
            .name("broadcast_processed_count")
            .help("The number of transactions processed.")
            .labelNames(labels)
            .register(registry);
    validateDuration =
        Histogram.builder()
            .name("broadcast_validate_duration")
            .help("The time to validate a transaction in seconds.")
            .labelNames(labels)
            .classicOnly()
            .classicUpperBounds(DURATION_BUCKETS)
            .register(registry);
    enqueueDuration =
        Histogram.builder()
            .name("broadcast_enqueue_duration")
            .help("The time to enqueue a transaction in seconds.")
            .labelNames(labels)
            .classicOnly()
            .classicUpperBounds(DURATION_BUCKETS)
            .register(registry);
  }

  /** An envelope refused by validation, before it reached a channel. */
  public void rejected(Status status, long validateNanos) {
    processed.labelValues("", "", status.name()).inc();
    validateDuration.labelValues("", "", status.name()).observe(validateNanos / NANOS_PER_SECOND);
  }

  /**
   * A validated envelope offered to its channel's replica.
   *
   * @param headerType the channel header's type number
   * @param status the answer the client gets
   */
  public void enqueued(
      String channel, int headerType, Status status, long validateNanos, long enqueueNanos) {
    String type = typeName(headerType);
    processed.labelValues(channel, type, status.name()).inc();
    validateDuration
        .labelValues(channel, type, status.name())
        .observe(validateNanos / NANOS_PER_SECOND);
    enqueueDuration
        .labelValues(channel, type, status.name())
        .observe(enqueueNanos / NANOS_PER_SECOND);
  }

  private static String typeName(int headerType) {
    HeaderType type = HeaderType.forNumber(headerType);
    return type == null ? Integer.toString(headerType) : type.name();
  }
}
