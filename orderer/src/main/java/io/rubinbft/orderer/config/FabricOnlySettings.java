package io.rubinbft.orderer.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The settings of Fabric's orderer.yaml (v2.x and v3.x, with the Kafka and RAM ledger sections of
 * older files) that have no meaning for this orderer. A file or environment that sets them still
 * loads, with one warning naming them, so the files Fabric operators run today start a node; a key
 * that is neither one of these nor one of {@link Settings} is a typo and an error.
 * docs/CONFIGURATION.md says why each has no meaning here.
 */
final class FabricOnlySettings {

  /** Single settings. */
  static final List<String> KEYS =
      List.of(
          "General.ConnectionTimeout",
          "General.GenesisMethod",
          "General.GenesisFile",
          "General.GenesisProfile",
          "General.BootstrapMethod",
          "General.BootstrapFile",
          "General.LedgerType",
          "General.SystemChannel",
          "General.TLS.TLSHandshakeTimeShift",
          "General.Cluster.ServerCertificate",
          "General.Cluster.ServerPrivateKey",
          "General.Cluster.RootCAs",
          "General.Cluster.DialTimeout",
          "General.Cluster.RPCTimeout",
          "General.Cluster.ReplicationBufferSize",
          "General.Cluster.ReplicationMaxRetries",
          "General.Cluster.ReplicationPolicy",
          "General.Cluster.ReplicationBackgroundRefreshInterval",
          "General.Cluster.SendBufferSize",
          "General.Cluster.CertExpirationWarningThreshold",
          "General.Cluster.TLSHandshakeTimeShift",
          "FileLedger.Prefix",
          "Operations.TLS.RootCAs",
          "Operations.TLS.TLSHandshakeTimeShift",
          "Admin.TLS.RootCAs",
          "Admin.TLS.TLSHandshakeTimeShift");

  /** Whole sections: every key under them. */
  static final List<String> SECTIONS =
      List.of(
          "General.Backoff",
          "General.Profile",
          "General.BCCSP",
          "Debug",
          "Metrics.Statsd",
          "Kafka",
          "RAMLedger",
          // Consensus is free-form in Fabric (etcdraft's SnapDir, EvictionSuspicion,
          // TickIntervalOverride...); only WALDir has a meaning here.
          "Consensus");

  private FabricOnlySettings() {}

  /**
   * The name to warn about when {@code key} (any case) is one of these: the key itself, or the
   * section it lies in.
   */
  static Optional<String> match(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    for (String known : KEYS) {
      if (known.toLowerCase(Locale.ROOT).equals(lower)) {
        return Optional.of(known);
      }
    }
    for (String section : SECTIONS) {
      String prefix = section.toLowerCase(Locale.ROOT);
      if (lower.equals(prefix) || lower.startsWith(prefix + ".")) {
        return Optional.of(section);
      }
    }
    return Optional.empty();
  }

  /** As {@link #match} for an environment variable, e.g. ORDERER_GENERAL_BCCSP_SW_HASH. */
  static Optional<String> matchEnvironment(String variable) {
    for (String known : KEYS) {
      if (Setting.environmentName(known).equals(variable)) {
        return Optional.of(known);
      }
    }
    for (String section : SECTIONS) {
      String name = Setting.environmentName(section);
      if (variable.equals(name) || variable.startsWith(name + "_")) {
        return Optional.of(section);
      }
    }
    return Optional.empty();
  }
}
