package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Registers gauges and counters labelled {@code channel} with one sample per channel view, read
 * from the views at each scrape (so a channel joined or removed shows up or disappears by itself).
 */
final class PerChannel<V> {

  private final PrometheusRegistry registry;
  private final Supplier<List<V>> views;
  private final Function<V, String> channel;

  PerChannel(PrometheusRegistry registry, Supplier<List<V>> views, Function<V, String> channel) {
    this.registry = registry;
    this.views = views;
    this.channel = channel;
  }

  void gauge(String name, String help, ToDoubleFunction<V> value) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("channel")
        .callback(callback -> sample(value, callback::call))
        .register(registry);
  }

  void counter(String name, String help, ToDoubleFunction<V> value) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("channel")
        .callback(callback -> sample(value, callback::call))
        .register(registry);
  }

  /** One sample of {@code value} per channel view, labelled with its channel. */
  private void sample(ToDoubleFunction<V> value, LabelledSink sink) {
    views.get().forEach(v -> sink.call(value.applyAsDouble(v), channel.apply(v)));
  }
}
