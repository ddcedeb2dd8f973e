package io.rubinbft.orderer.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the format requires of a histogram family's samples, per label set. */
final class HistogramCheck {

  private HistogramCheck() {}

  static void check(PrometheusText.Family family) {
    Map<Map<String, String>, List<PrometheusText.Sample>> buckets = new HashMap<>();
    Map<Map<String, String>, Double> counts = new HashMap<>();
    for (PrometheusText.Sample sample : family.samples()) {
      if (sample.name().equals(family.name() + "_bucket")) {
        Map<String, String> series = new TreeMap<>(sample.labels());
        if (series.remove("le") == null) {
          throw new IllegalArgumentException(family.name() + " has a bucket without 'le'");
        }
        buckets.computeIfAbsent(series, s -> new ArrayList<>()).add(sample);
      } else if (sample.name().equals(family.name() + "_count")) {
        counts.put(sample.labels(), sample.value());
      }
    }
    buckets.forEach((series, list) -> checkSeries(family.name(), series, list, counts.get(series)));
  }

  private static void checkSeries(
      String name, Map<String, String> series, List<PrometheusText.Sample> list, Double count) {
    List<PrometheusText.Sample> sorted =
        list.stream()
            .sorted(
                Comparator.comparingDouble(s -> PrometheusText.parseValue(s.labels().get("le"))))
            .toList();
    double previous = 0;
    for (PrometheusText.Sample bucket : sorted) {
      if (bucket.value() < previous) {
        throw new IllegalArgumentException(name + series + " has buckets that are not cumulative");
      }
      previous = bucket.value();
    }
    PrometheusText.Sample last = sorted.getLast();
    if (PrometheusText.parseValue(last.labels().get("le")) != Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(name + series + " has no +Inf bucket");
    }
    if (count == null || count != last.value()) {
      throw new IllegalArgumentException(
          name + series + " counts " + count + " but its +Inf bucket holds " + last.value());
    }
  }
}
