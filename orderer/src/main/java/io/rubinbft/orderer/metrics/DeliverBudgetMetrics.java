package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The node's budget of direct memory for blocks being sent to Deliver readers (not one of Fabric's
 * metrics), read from its owner at each scrape (orderer/docs/MEMORY.md "Sizing").
 */
public final class DeliverBudgetMetrics {

  /** What the budget tells at a scrape. */
  public interface Readings {
    /** Bytes of blocks handed to gRPC that their readers have not taken yet. */
    long bytesInFlight();

    long bytesBudget();

    /** Blocks waiting for room in the budget. */
    long blocksWaiting();

    /**
     * Streams ended because their reader did not take its block in its turn while others waited.
     */
    long gaveWayTooSlow();

    /** Streams ended because a block response found the node's direct memory full. */
    long gaveWayDirectMemory();
  }

  private DeliverBudgetMetrics() {}

  /** Registers the budget's gauges and counts in {@code registry}, read from {@code readings}. */
  public static void register(PrometheusRegistry registry, Readings readings) {
    GaugeWithCallback.builder()
        .name("orderer_deliver_bytes_in_flight")
        .help("Bytes of blocks handed to gRPC for Deliver readers that they have not taken yet.")
        .callback(callback -> callback.call((double) readings.bytesInFlight()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("orderer_deliver_bytes_budget")
        .help("The bytes of blocks being sent to Deliver readers the node holds at most.")
        .callback(callback -> callback.call((double) readings.bytesBudget()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("orderer_deliver_blocks_waiting")
        .help("Blocks for Deliver readers waiting for room in the node's Deliver bytes budget.")
        .callback(callback -> callback.call((double) readings.blocksWaiting()))
        .register(registry);
    CounterWithCallback.builder()
        .name("orderer_deliver_streams_given_way")
        .help(
            "Deliver streams ended to free the node's memory, by reason: too_slow (the reader did"
                + " not take its block in its turn while others waited), direct_memory (a block"
                + " found the node's direct memory full).")
        .labelNames("reason")
        .callback(
            callback -> {
              callback.call((double) readings.gaveWayTooSlow(), "too_slow");
              callback.call((double) readings.gaveWayDirectMemory(), "direct_memory");
            })
        .register(registry);
  }
}
