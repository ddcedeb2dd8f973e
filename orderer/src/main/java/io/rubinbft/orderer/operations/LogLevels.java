package io.rubinbft.orderer.operations;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Log levels at run time, set with Fabric's logging specification syntax: {@code
 * <level>[:<logger>[,<logger>...]=<level>...]}, e.g. {@code info:io.rubinbft.bft=debug}. Logger
 * names are hierarchical (dotted prefixes). Logging runs on java.util.logging behind SLF4J.
 */
public final class LogLevels {

  private static final Map<String, Level> LEVELS =
      Map.of(
          "debug", Level.FINE,
          "info", Level.INFO,
          "warn", Level.WARNING,
          "warning", Level.WARNING,
          "error", Level.SEVERE,
          "fatal", Level.SEVERE,
          "panic", Level.SEVERE);

  /** Holds the configured loggers strongly: java.util.logging forgets levels of collected ones. */
  private final Map<String, Logger> configured = new HashMap<>();

  private String spec;

  public LogLevels(String initialSpec) {
    apply(initialSpec);
  }

  public synchronized String spec() {
    return spec;
  }

  /**
   * Replaces the whole specification; loggers it no longer names go back to the default.
   *
   * @throws IllegalArgumentException saying which segment is wrong; nothing changes then
   */
  public synchronized void apply(String newSpec) {
    Map<String, Level> parsed = parse(newSpec);
    configured.values().forEach(logger -> logger.setLevel(null));
    configured.clear();
    parsed.forEach(
        (name, level) -> {
          Logger logger = Logger.getLogger(name);
          logger.setLevel(level);
          configured.put(name, logger);
        });
    spec = newSpec.trim();
  }

  private static Map<String, Level> parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("invalid logging specification: it is empty");
    }
    Map<String, Level> result = new HashMap<>();
    result.put("", Level.INFO);
    for (String segment : spec.trim().split(":", 0)) {
      int equals = segment.indexOf('=');
      Level level = level(segment.substring(equals + 1), spec);
      List<String> names =
          equals < 0
              ? List.of("")
              : new ArrayList<>(List.of(segment.substring(0, equals).split(",")));
      for (String name : names) {
        if (equals >= 0 && name.isBlank()) {
          throw new IllegalArgumentException(
              "invalid logging specification '"
                  + spec
                  + "': empty logger name in '"
                  + segment
                  + "'");
        }
        result.put(name.trim(), level);
      }
    }
    return result;
  }

  private static Level level(String text, String spec) {
    Level level = LEVELS.get(text.trim().toLowerCase(Locale.ROOT));
    if (level == null) {
      throw new IllegalArgumentException(
          "invalid logging specification '"
              + spec
              + "': unknown level '"
              + text
              + "' (debug, info, warn, error, fatal, panic)");
    }
    return level;
  }
}
