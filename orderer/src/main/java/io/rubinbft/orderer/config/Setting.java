package io.rubinbft.orderer.config;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One known setting of the node configuration.
 *
 * @param key the dotted key as written in orderer.yaml, e.g. {@code General.TLS.Enabled}
 * @param type how its text is read
 * @param defaultValue the embedded default's text, or null when the setting is optional
 */
record Setting(String key, SettingType type, @Nullable String defaultValue) {

  /**
   * The environment variable that overrides it, as Fabric names them: ORDERER_GENERAL_TLS_ENABLED.
   */
  String environmentVariable() {
    return environmentName(key);
  }

  /** The environment variable Fabric reads for the dotted {@code key}. */
  static String environmentName(String key) {
    return "ORDERER_" + key.toUpperCase(Locale.ROOT).replace('.', '_');
  }
}
