package io.rubinbft.orderer.metrics;

/**
 * A callback metric's sink, a gauge's or a counter's alike: a value with its label values (the
 * Prometheus client's two callback types have no common one).
 */
@FunctionalInterface
interface LabelledSink {
  void call(double value, String... labelValues);
}
