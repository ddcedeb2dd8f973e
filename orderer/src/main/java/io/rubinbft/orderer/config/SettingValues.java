package io.rubinbft.orderer.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The text of every setting after the three layers are applied: embedded default, then the YAML
 * file, then ORDERER_... environment variables. Keys match case-insensitively, as Fabric's do. A
 * setting of Fabric's orderer.yaml with no meaning here ({@link FabricOnlySettings}) is noted for
 * one warning; any other unknown key in the file is an error (a typo must not silently fall back to
 * a default), and an ORDERER_... variable that names no setting is warned about. An empty value in
 * the file (Fabric's sample leaves many empty) leaves the default, as Fabric's zero values do.
 */
final class SettingValues {

  /** A setting's text and where it came from, for error messages. */
  record Value(@Nullable Object text, String origin) {}

  private static final Map<String, Setting> BY_LOWER_KEY = new HashMap<>();

  static {
    Settings.ALL.forEach(s -> BY_LOWER_KEY.put(s.key().toLowerCase(Locale.ROOT), s));
  }

  private final Map<Setting, Value> values = new HashMap<>();
  private final Set<String> fabricOnly = new LinkedHashSet<>();
  private final List<String> unknownVariables = new ArrayList<>();
  private final Path baseDirectory;

  private SettingValues(Path baseDirectory) {
    this.baseDirectory = baseDirectory;
  }

  /** Reads {@code file} (absent means embedded defaults) and applies {@code environment}. */
  static SettingValues load(Path file, Map<String, String> environment) {
    // A file's absolute path has a parent: only a root has none.
    Path base = Objects.requireNonNull(file.toAbsolutePath().getParent());
    SettingValues result = new SettingValues(base);
    for (Setting setting : Settings.ALL) {
      if (setting.defaultValue() != null) {
        result.values.put(setting, new Value(setting.defaultValue(), "default"));
      }
    }
    if (Files.exists(file)) {
      result.readYaml(file);
    }
    result.applyEnvironment(environment);
    return result;
  }

  /**
   * One warning per kind, or none: the Fabric settings set here that do nothing, and the
   * ORDERER_... variables that name no setting.
   */
  List<String> warnings() {
    List<String> warnings = new ArrayList<>();
    if (!fabricOnly.isEmpty()) {
      warnings.add(
          "ignoring settings of Fabric's orderer that have no meaning for this orderer"
              + " (docs/CONFIGURATION.md says why): "
              + String.join(", ", fabricOnly));
    }
    if (!unknownVariables.isEmpty()) {
      warnings.add(
          "ignoring environment variables that name no orderer setting: "
              + String.join(", ", unknownVariables));
    }
    return List.copyOf(warnings);
  }

  private void applyEnvironment(Map<String, String> environment) {
    Map<String, Setting> byVariable = new HashMap<>();
    Settings.ALL.forEach(s -> byVariable.put(s.environmentVariable(), s));
    for (String variable : new TreeSet<>(environment.keySet())) {
      if (!variable.startsWith("ORDERER_")) {
        continue;
      }
      Setting setting = byVariable.get(variable);
      if (setting != null) {
        values.put(setting, new Value(environment.get(variable), variable));
      } else {
        FabricOnlySettings.matchEnvironment(variable)
            .ifPresentOrElse(
                key -> fabricOnly.add(key + " (" + variable + ")"),
                () -> unknownVariables.add(variable + suggestion(variable, byVariable.keySet())));
      }
    }
  }

  Path baseDirectory() {
    return baseDirectory;
  }

  /** The value of {@code setting}, or null when it is unset and has no default. */
  @Nullable Value get(Setting setting) {
    Value value = values.get(setting);
    if (value == null || value.text() == null) {
      return null;
    }
    return value;
  }

  private void readYaml(Path file) {
    Object root;
    try (Reader reader = Files.newBufferedReader(file)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    } catch (IOException | YAMLException e) {
      throw new ConfigException("cannot read config file " + file + ": " + e.getMessage(), e);
    }
    if (root == null) {
      return;
    }
    if (!(root instanceof Map<?, ?> map)) {
      throw new ConfigException("config file " + file + " must hold a YAML mapping at the top");
    }
    flatten("", map, file);
  }

  private void flatten(String prefix, Map<?, ?> map, Path file) {
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String key = prefix + entry.getKey();
      Setting setting = BY_LOWER_KEY.get(key.toLowerCase(Locale.ROOT));
      if (setting != null) {
        if (entry.getValue() != null) {
          values.put(
              setting, new Value(scalarOrList(key, entry.getValue(), file), file.toString()));
        }
      } else if (entry.getValue() instanceof Map<?, ?> section && holdsSettings(key)) {
        flatten(key + ".", section, file);
      } else if (FabricOnlySettings.match(key).isPresent()) {
        if (!isEmpty(entry.getValue())) {
          fabricOnly.add(key);
        }
      } else if (entry.getValue() instanceof Map<?, ?>) {
        throw new ConfigException(
            "unknown section '"
                + key
                + "' in "
                + file
                + ": neither a section of this orderer nor one of Fabric's orderer.yaml"
                + suggestion(key, concat(sections(), FabricOnlySettings.SECTIONS)));
      } else {
        throw new ConfigException(
            "unknown setting '"
                + key
                + "' in "
                + file
                + ": neither a setting of this orderer nor one of Fabric's orderer.yaml"
                + suggestion(
                    key,
                    concat(
                        Settings.ALL.stream().map(Setting::key).toList(),
                        FabricOnlySettings.KEYS)));
      }
    }
  }

  private static boolean isEmpty(Object value) {
    return value == null
        || (value instanceof Map<?, ?> map && map.values().stream().allMatch(v -> isEmpty(v)))
        || (value instanceof List<?> list && list.isEmpty())
        || value.toString().isBlank();
  }

  private static boolean holdsSettings(String section) {
    String lowerPrefix = section.toLowerCase(Locale.ROOT) + ".";
    return BY_LOWER_KEY.keySet().stream().anyMatch(k -> k.startsWith(lowerPrefix));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static List<String> sections() {
    Set<String> sections = new TreeSet<>();
    for (Setting setting : Settings.ALL) {
      String key = setting.key();
      for (int dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
        sections.add(key.substring(0, dot));
      }
    }
    return List.copyOf(sections);
  }

  /**
   * " (did you mean 'X'?)" for the known name closest to {@code name} when it is a likely typo of
   * it (at most a third of its letters differ), otherwise "".
   */
  private static String suggestion(String name, Collection<String> known) {
    String lower = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int distance = editDistance(lower, candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best != null && bestDistance <= Math.max(2, name.length() / 3)
        ? " (did you mean '" + best + "'?)"
        : "";
  }

  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static @Nullable Object scalarOrList(String key, Object value, Path file) {
    if (value instanceof List<?> list) {
      List<String> texts = new ArrayList<>(list.size());
      list.forEach(item -> texts.add(String.valueOf(item)));
      return List.copyOf(texts);
    }
    if (value instanceof Map<?, ?>) {
      throw new ConfigException(key + " in " + file + " must be a value, not a section");
    }
    return value == null ? null : String.valueOf(value);
  }
}
