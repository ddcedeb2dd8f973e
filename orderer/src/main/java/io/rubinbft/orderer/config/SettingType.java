package io.rubinbft.orderer.config;

/** How a setting's text (from YAML or an environment variable) is read. */
enum SettingType {
  STRING,
  /** A file or directory; relative paths resolve against the config file's directory, as Fabric. */
  PATH,
  /**
   * A list of paths: a YAML sequence, or {@code [a,b]} / {@code a,b} in an environment variable.
   */
  PATH_LIST,
  INT,
  BOOLEAN,
  /** Go-style duration, as in Fabric's orderer.yaml: {@code 500ms}, {@code 20s}, {@code 1h30m}. */
  DURATION,
  /** A size in bytes, optionally with a unit: {@code 104857600}, {@code 100MB}, {@code 1GB}. */
  BYTES
}
