package io.rubinbft.orderer.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A parser of Prometheus's text exposition format (version 0.0.4): HELP and TYPE lines, comments,
 * samples with escaped label values, Go float values (NaN, +Inf, -Inf) and optional timestamps.
 * Stricter than Prometheus where strictness finds exporter bugs: a family's TYPE must come before
 * its samples and only once, a sample may not repeat, and a histogram's buckets must be cumulative
 * and end in an +Inf bucket equal to its count. No maintained Java parser of the format exists (the
 * Prometheus Java client only writes it), so this one is written to the format's specification.
 */
public final class PrometheusText {

  /** One sample line. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  /** One metric family: its TYPE (untyped when none was given), HELP and samples. */
  public record Family(String name, String type, String help, List<Sample> samples) {

    /** The value of the sample named {@code sampleName} whose labels include {@code labels}. */
    public Optional<Double> value(String sampleName, Map<String, String> labels) {
      return samples.stream()
          .filter(s -> s.name().equals(sampleName))
          .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
          .map(Sample::value)
          .reduce(Double::sum);
    }
  }

  private static final Set<String> TYPES =
      Set.of("counter", "gauge", "histogram", "summary", "untyped");

  private final Map<String, String> types = new LinkedHashMap<>();
  private final Map<String, String> helps = new LinkedHashMap<>();
  private final Map<String, List<Sample>> samples = new LinkedHashMap<>();
  private final Set<String> seen = new HashSet<>();
  private int lineNumber;

  private PrometheusText() {}

  /**
   * Parses a whole exposition.
   *
   * @throws IllegalArgumentException naming the line and what is wrong with it
   */
  public static Map<String, Family> parse(String text) {
    PrometheusText parser = new PrometheusText();
    for (String line : text.split("\n", -1)) {
      parser.lineNumber++;
      try {
        parser.line(line);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("line " + parser.lineNumber + ": " + e.getMessage(), e);
      }
    }
    return parser.families();
  }

  private void line(String line) {
    if (line.isBlank()) {
      return;
    }
    if (line.startsWith("#")) {
      comment(line);
      return;
    }
    sample(new Cursor(line));
  }

  private void comment(String line) {
    String[] parts = line.substring(1).strip().split("[ \t]+", 3);
    if (parts.length < 2 || !(parts[0].equals("HELP") || parts[0].equals("TYPE"))) {
      return; // an ordinary comment
    }
    String name = parts[1];
    requireMetricName(name);
    String rest = parts.length == 3 ? parts[2] : "";
    if (parts[0].equals("TYPE")) {
      if (!TYPES.contains(rest)) {
        throw new IllegalArgumentException("unknown type '" + rest + "' for " + name);
      }
      if (types.containsKey(name) || samples.containsKey(name)) {
        throw new IllegalArgumentException("TYPE of " + name + " after its samples or repeated");
      }
      types.put(name, rest);
    } else {
      if (helps.put(name, unescapeHelp(rest)) != null) {
        throw new IllegalArgumentException("second HELP for " + name);
      }
    }
  }

  private void sample(Cursor cursor) {
    String name = cursor.name(false);
    Map<String, String> labels = new TreeMap<>();
    cursor.skipBlanks();
    if (cursor.peek() == '{') {
      cursor.next();
      labels(cursor, labels);
    }
    cursor.skipBlanks();
    double value = parseValue(cursor.token());
    cursor.skipBlanks();
    if (!cursor.atEnd()) {
      String timestamp = cursor.token();
      try {
        Long.parseLong(timestamp);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("timestamp '" + timestamp + "' is not an integer");
      }
    }
    cursor.skipBlanks();
    if (!cursor.atEnd()) {
      throw new IllegalArgumentException("unexpected text after the sample: " + cursor.rest());
    }
    if (!seen.add(name + labels)) {
      throw new IllegalArgumentException("sample " + name + labels + " appears twice");
    }
    samples
        .computeIfAbsent(familyOf(name), f -> new ArrayList<>())
        .add(new Sample(name, labels, value));
  }

  private static void labels(Cursor cursor, Map<String, String> labels) {
    while (true) {
      cursor.skipBlanks();
      if (cursor.peek() == '}') {
        cursor.next();
        return;
      }
      String label = cursor.name(true);
      cursor.skipBlanks();
      cursor.expect('=');
      cursor.skipBlanks();
      cursor.expect('"');
      if (labels.put(label, cursor.quoted()) != null) {
        throw new IllegalArgumentException("label " + label + " appears twice");
      }
      cursor.skipBlanks();
      if (cursor.peek() == ',') {
        cursor.next();
      } else if (cursor.peek() != '}') {
        throw new IllegalArgumentException("expected ',' or '}' at column " + cursor.column());
      }
    }
  }

  /** The family a sample belongs to: its TYPE's name, with histogram and summary suffixes. */
  private String familyOf(String name) {
    for (String suffix : List.of("_bucket", "_sum", "_count", "_total")) {
      if (name.endsWith(suffix)) {
        String base = name.substring(0, name.length() - suffix.length());
        String type = types.get(base);
        boolean belongs =
            switch (suffix) {
              case "_bucket" -> "histogram".equals(type);
              case "_sum", "_count" -> "histogram".equals(type) || "summary".equals(type);
              default -> "counter".equals(type);
            };
        if (belongs) {
          return base;
        }
      }
    }
    return name;
  }

  private Map<String, Family> families() {
    Map<String, Family> families = new LinkedHashMap<>();
    Set<String> names = new LinkedHashSet<>(types.keySet());
    names.addAll(samples.keySet());
    for (String name : names) {
      Family family =
          new Family(
              name,
              types.getOrDefault(name, "untyped"),
              helps.getOrDefault(name, ""),
              List.copyOf(samples.getOrDefault(name, List.of())));
      if (family.type().equals("histogram")) {
        HistogramCheck.check(family);
      }
      families.put(name, family);
    }
    return families;
  }

  static double parseValue(String token) {
    return switch (token) {
      case "NaN" -> Double.NaN;
      case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> {
        if (!token.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
          throw new IllegalArgumentException("value '" + token + "' is not a number");
        }
        yield Double.parseDouble(token);
      }
    };
  }

  private static void requireMetricName(String name) {
    if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
      throw new IllegalArgumentException("'" + name + "' is not a metric name");
    }
  }

  private static String unescapeHelp(String help) {
    StringBuilder out = new StringBuilder(help.length());
    for (int i = 0; i < help.length(); i++) {
      char c = help.charAt(i);
      char escaped = i + 1 < help.length() ? help.charAt(i + 1) : ' ';
      if (c == '\\' && (escaped == 'n' || escaped == '\\')) {
        out.append(escaped == 'n' ? '\n' : '\\');
        i++;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
