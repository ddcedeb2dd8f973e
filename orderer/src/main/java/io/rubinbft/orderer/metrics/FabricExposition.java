package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Label;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a scrape in Prometheus's text format 0.0.4 as Fabric's orderer serves it, so that its
 * dashboards and alerts find the same series: Fabric's counters ({@link
 * FabricMetricNames#COUNTERS}) without the {@code _total} suffix that the Prometheus Java client
 * adds to every counter (Fabric's Go exporter adds none). Fabric serves this format only, never
 * OpenMetrics (whose counters must end in {@code _total}), so this is the only format served. Every
 * other family is written by the Prometheus client's own writer, unchanged.
 */
public final class FabricExposition {

  /** What Fabric's orderer answers /metrics with. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private FabricExposition() {}

  /** Writes {@code snapshots} to {@code out} (not closed). */
  public static void write(OutputStream out, MetricSnapshots snapshots) throws IOException {
    List<MetricSnapshot> others = new ArrayList<>();
    Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
    for (MetricSnapshot snapshot : snapshots) {
      if (snapshot instanceof CounterSnapshot counter
          && FabricMetricNames.COUNTERS.contains(counter.getMetadata().getPrometheusName())) {
        writeBareCounter(writer, counter);
      } else {
        others.add(snapshot);
      }
    }
    writer.flush();
    PrometheusTextFormatWriter.create()
        .write(out, new MetricSnapshots(others), EscapingScheme.UNDERSCORE_ESCAPING);
  }

  private static void writeBareCounter(Writer writer, CounterSnapshot counter) throws IOException {
    String name = counter.getMetadata().getPrometheusName();
    if (counter.getMetadata().getHelp() != null) {
      writer.write("# HELP " + name + " " + escape(counter.getMetadata().getHelp(), false) + "\n");
    }
    writer.write("# TYPE " + name + " counter\n");
    for (CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints()) {
      writer.write(name);
      if (!point.getLabels().isEmpty()) {
        StringBuilder labels = new StringBuilder("{");
        for (Label label : point.getLabels()) {
          if (labels.length() > 1) {
            labels.append(',');
          }
          labels
              .append(label.getName())
              .append("=\"")
              .append(escape(label.getValue(), true))
              .append('"');
        }
        writer.write(labels.append('}').toString());
      }
      writer.write(" " + value(point.getValue()) + "\n");
    }
  }

  /** As Go's strconv.FormatFloat(v, 'g', -1, 64) for the values counters hold. */
  private static String value(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }

  private static String escape(String text, boolean quotes) {
    StringBuilder escaped = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> escaped.append("\\\\");
        case '\n' -> escaped.append("\\n");
        case '"' -> escaped.append(quotes ? "\\\"" : "\"");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
