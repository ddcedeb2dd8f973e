package io.rubinbft.orderer.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The text of every setting after the three layers are applied: embedded default, then the YAML
 * file, then ORDERER_... environment variables. Keys match case-insensitively, as Fabric's do; an
 * unknown key in the file is an error (a typo must not silently fall back to a default).
 */
final class SettingValues {

  /** A setting's text and where it came from, for error messages. */
  record Value(Object text, String origin) {}

  private static final Map<String, Setting> BY_LOWER_KEY = new HashMap<>();

  static {
    Settings.ALL.forEach(s -> BY_LOWER_KEY.put(s.key().toLowerCase(Locale.ROOT), s));
  }

  private final Map<Setting, Value> values = new HashMap<>();
  private final Path baseDirectory;

  private SettingValues(Path baseDirectory) {
    this.baseDirectory = baseDirectory;
  }

  /** Reads {@code file} (absent means embedded defaults) and applies {@code environment}. */
  static SettingValues load(Path file, Map<String, String> environment) {
    Path base = file.toAbsolutePath().getParent();
    SettingValues result = new SettingValues(base);
    for (Setting setting : Settings.ALL) {
      if (setting.defaultValue() != null) {
        result.values.put(setting, new Value(setting.defaultValue(), "default"));
      }
    }
    if (Files.exists(file)) {
      result.readYaml(file);
    }
    for (Setting setting : Settings.ALL) {
      String text = environment.get(setting.environmentVariable());
      if (text != null) {
        result.values.put(setting, new Value(text, setting.environmentVariable()));
      }
    }
    return result;
  }

  Path baseDirectory() {
    return baseDirectory;
  }

  /** The value of {@code setting}, or null when it is unset and has no default. */
  Value get(Setting setting) {
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
      if (entry.getValue() instanceof Map<?, ?> section && setting == null) {
        requireKnownSection(key, file);
        flatten(key + ".", section, file);
      } else if (setting == null) {
        throw new ConfigException("unknown setting '" + key + "' in " + file);
      } else {
        values.put(setting, new Value(scalarOrList(key, entry.getValue(), file), file.toString()));
      }
    }
  }

  private static void requireKnownSection(String key, Path file) {
    String lowerPrefix = key.toLowerCase(Locale.ROOT) + ".";
    if (BY_LOWER_KEY.keySet().stream().noneMatch(k -> k.startsWith(lowerPrefix))) {
      throw new ConfigException("unknown section '" + key + "' in " + file);
    }
  }

  private static Object scalarOrList(String key, Object value, Path file) {
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
