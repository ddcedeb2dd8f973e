package io.rubinbft.orderer.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads typed values out of {@link SettingValues}; every error names the setting and its source.
 */
final class SettingParser {

  private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*(B|KB|MB|GB)?");

  private final SettingValues values;

  SettingParser(SettingValues values) {
    this.values = values;
  }

  Optional<String> optionalString(Setting setting) {
    SettingValues.Value value = values.get(setting);
    // SettingValues.get answers only values with a text.
    if (value == null || Objects.requireNonNull(value.text()).toString().isBlank()) {
      return Optional.empty();
    }
    return Optional.of(value.text().toString().trim());
  }

  String string(Setting setting) {
    return optionalString(setting)
        .orElseThrow(() -> new ConfigException(setting.key() + " is required but not set"));
  }

  int integer(Setting setting, int min, int max) {
    String text = string(setting);
    try {
      int number = Integer.parseInt(text);
      if (number < min || number > max) {
        throw fail(setting, text, "must be between " + min + " and " + max);
      }
      return number;
    } catch (NumberFormatException e) {
      throw fail(setting, text, "is not a whole number");
    }
  }

  boolean bool(Setting setting) {
    String text = string(setting).toLowerCase(Locale.ROOT);
    return switch (text) {
      case "true" -> true;
      case "false" -> false;
      default -> throw fail(setting, text, "must be true or false");
    };
  }

  Duration duration(Setting setting) {
    String text = string(setting);
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw fail(setting, text, "is not a duration like 500ms, 20s, 15m or 1h30m");
    }
  }

  Duration positiveDuration(Setting setting) {
    Duration duration = duration(setting);
    if (duration.isNegative() || duration.isZero()) {
      throw fail(setting, string(setting), "must be longer than zero");
    }
    return duration;
  }

  long bytes(Setting setting) {
    String text = string(setting);
    Matcher matcher = BYTES.matcher(text.toUpperCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw fail(setting, text, "is not a size like 1048576, 512KB, 100MB or 1GB");
    }
    int shift =
        switch (matcher.group(2) == null ? "B" : matcher.group(2)) {
          case "KB" -> 10;
          case "MB" -> 20;
          case "GB" -> 30;
          default -> 0;
        };
    return Long.parseLong(matcher.group(1)) << shift;
  }

  Optional<Path> optionalPath(Setting setting) {
    return optionalString(setting).map(this::resolve);
  }

  Path path(Setting setting) {
    return resolve(string(setting));
  }

  List<Path> paths(Setting setting) {
    SettingValues.Value value = values.get(setting);
    if (value == null) {
      return List.of();
    }
    List<Path> result = new ArrayList<>();
    for (String item : items(Objects.requireNonNull(value.text()))) {
      if (!item.isBlank()) {
        result.add(resolve(item.trim()));
      }
    }
    return List.copyOf(result);
  }

  /** A value that parsed but makes no sense: names the setting, its text and where it came from. */
  ConfigException fail(Setting setting, String text, String problem) {
    SettingValues.Value value = values.get(setting);
    String origin = value == null ? "default" : value.origin();
    return new ConfigException(
        setting.key() + " (from " + origin + ") is '" + text + "' but " + problem);
  }

  /** Environment variables write lists as {@code [a,b]} or {@code a,b}, as Fabric accepts. */
  private static List<String> items(Object text) {
    if (text instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    String flat = text.toString().trim();
    if (flat.startsWith("[") && flat.endsWith("]")) {
      flat = flat.substring(1, flat.length() - 1);
    }
    return List.of(flat.split(","));
  }

  private Path resolve(String text) {
    return values.baseDirectory().resolve(text).normalize();
  }
}
