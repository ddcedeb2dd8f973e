package io.rubinbft.orderer.config;

import static io.rubinbft.orderer.config.SettingType.BOOLEAN;
import static io.rubinbft.orderer.config.SettingType.BYTES;
import static io.rubinbft.orderer.config.SettingType.DURATION;
import static io.rubinbft.orderer.config.SettingType.INT;
import static io.rubinbft.orderer.config.SettingType.PATH;
import static io.rubinbft.orderer.config.SettingType.PATH_LIST;
import static io.rubinbft.orderer.config.SettingType.STRING;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Every setting of the node configuration, with its embedded default. Keys and defaults follow
 * Fabric's orderer.yaml wherever Fabric has the setting, so an operator's knowledge (and
 * ORDERER_... environment variables in existing deployments) carries over; docs/CONFIGURATION.md
 * lists them.
 */
final class Settings {

  /**
   * The keys of one endpoint's TLS.
   *
   * @param rootCas the CAs that make the chains of this node's certificates complete (the admin and
   *     operations endpoints take General.TLS's)
   */
  record Tls(
      Setting enabled,
      Setting certificate,
      Setting privateKey,
      Setting rootCas,
      Setting clientAuth,
      Setting clientRootCas) {}

  // Filled by of() as the settings below are made: first, so that it exists before them.
  private static final List<Setting> DECLARED = new ArrayList<>();

  static final Setting LISTEN_ADDRESS = of("General.ListenAddress", STRING, "127.0.0.1");
  static final Setting LISTEN_PORT = of("General.ListenPort", INT, "7050");
  static final Tls TLS =
      tls(
          "General.TLS",
          "true",
          "tls/server.crt",
          "tls/server.key",
          of("General.TLS.RootCAs", PATH_LIST, "tls/ca.crt"),
          "false");
  static final Setting MSP_DIR = of("General.LocalMSPDir", PATH, "msp");
  static final Setting MSP_ID = of("General.LocalMSPID", STRING, null);
  static final Setting AUTH_TIME_WINDOW = of("General.Authentication.TimeWindow", DURATION, "15m");
  static final Setting MAX_RECV_MSG_SIZE = of("General.MaxRecvMsgSize", BYTES, "100MB");
  static final Setting MAX_SEND_MSG_SIZE = of("General.MaxSendMsgSize", BYTES, "100MB");
  static final Setting NO_EXPIRATION_CHECKS =
      of("General.Authentication.NoExpirationChecks", BOOLEAN, "false");
  static final Setting KEEPALIVE_SERVER_MIN_INTERVAL =
      of("General.Keepalive.ServerMinInterval", DURATION, "60s");
  static final Setting KEEPALIVE_SERVER_INTERVAL =
      of("General.Keepalive.ServerInterval", DURATION, "7200s");
  static final Setting KEEPALIVE_SERVER_TIMEOUT =
      of("General.Keepalive.ServerTimeout", DURATION, "20s");
  static final Setting CONNECTIONS_MAX =
      of("General.Connections.Max", INT, String.valueOf(ConnectionLimits.DEFAULTS.max()));
  static final Setting CONNECTIONS_MAX_PER_ADDRESS =
      of(
          "General.Connections.MaxPerAddress",
          INT,
          String.valueOf(ConnectionLimits.DEFAULTS.maxPerAddress()));
  static final Setting CONNECTIONS_MAX_HANDSHAKING =
      of(
          "General.Connections.MaxHandshaking",
          INT,
          String.valueOf(ConnectionLimits.DEFAULTS.maxHandshaking()));
  static final Setting CONNECTIONS_MAX_HANDSHAKING_PER_ADDRESS =
      of(
          "General.Connections.MaxHandshakingPerAddress",
          INT,
          String.valueOf(ConnectionLimits.DEFAULTS.maxHandshakingPerAddress()));
  static final Setting THROTTLING_RATE = of("General.Throttling.Rate", INT, "0");
  static final Setting THROTTLING_INACTIVITY_TIMEOUT =
      of("General.Throttling.InactivityTimeout", DURATION, "5s");

  static final Setting CLUSTER_TRANSPORT = of("General.Cluster.Transport", STRING, "tcp");
  static final Setting CLUSTER_LISTEN_ADDRESS =
      of("General.Cluster.ListenAddress", STRING, "0.0.0.0");
  static final Setting CLUSTER_LISTEN_PORT = of("General.Cluster.ListenPort", INT, null);
  static final Setting CLUSTER_CERTIFICATE = of("General.Cluster.ClientCertificate", PATH, null);
  static final Setting CLUSTER_PRIVATE_KEY = of("General.Cluster.ClientPrivateKey", PATH, null);
  static final Setting CLUSTER_SHM_DIRECTORY =
      of("General.Cluster.ShmDirectory", PATH, "/dev/shm/rubin-orderer");
  static final Setting CLUSTER_RDMA_DEVICE = of("General.Cluster.RdmaDevice", STRING, null);
  static final Setting CLUSTER_RDMA_PORT = of("General.Cluster.RdmaPort", INT, "1");
  static final Setting CLUSTER_RDMA_GID_INDEX = of("General.Cluster.RdmaGidIndex", INT, null);
  static final Setting CLUSTER_REPLICATION_PULL_TIMEOUT =
      of("General.Cluster.ReplicationPullTimeout", DURATION, null);
  static final Setting CLUSTER_REPLICATION_RETRY_TIMEOUT =
      of("General.Cluster.ReplicationRetryTimeout", DURATION, null);

  static final Setting LEDGER_LOCATION =
      of("FileLedger.Location", PATH, "/var/hyperledger/production/orderer");
  static final Setting WAL_DIR = of("Consensus.WALDir", PATH, null);

  static final Setting ADMIN_LISTEN_ADDRESS = of("Admin.ListenAddress", STRING, "127.0.0.1:9443");
  static final Tls ADMIN_TLS =
      tls("Admin.TLS", "true", "tls/server.crt", "tls/server.key", TLS.rootCas(), "true");
  static final Setting PARTICIPATION_ENABLED = of("ChannelParticipation.Enabled", BOOLEAN, "true");
  static final Setting PARTICIPATION_MAX_BODY =
      of("ChannelParticipation.MaxRequestBodySize", BYTES, "1MB");

  static final Setting OPERATIONS_LISTEN_ADDRESS =
      of("Operations.ListenAddress", STRING, "127.0.0.1:8443");
  static final Tls OPERATIONS_TLS =
      tls("Operations.TLS", "false", null, null, TLS.rootCas(), "false");
  static final Setting METRICS_PROVIDER = of("Metrics.Provider", STRING, "prometheus");

  /** Every setting, in the order made above. */
  static final List<Setting> ALL = List.copyOf(DECLARED);

  private Settings() {}

  private static Setting of(String key, SettingType type, @Nullable String defaultValue) {
    Setting setting = new Setting(key, type, defaultValue);
    DECLARED.add(setting);
    return setting;
  }

  /** The TLS keys below {@code section}, with their defaults; its client roots default to none. */
  private static Tls tls(
      String section,
      String enabled,
      @Nullable String certificate,
      @Nullable String privateKey,
      Setting rootCas,
      String clientAuth) {
    return new Tls(
        of(section + ".Enabled", BOOLEAN, enabled),
        of(section + ".Certificate", PATH, certificate),
        of(section + ".PrivateKey", PATH, privateKey),
        rootCas,
        of(section + ".ClientAuthRequired", BOOLEAN, clientAuth),
        of(section + ".ClientRootCAs", PATH_LIST, ""));
  }
}
