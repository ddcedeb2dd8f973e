package io.rubinbft.orderer.config;

import static io.rubinbft.orderer.config.SettingType.BOOLEAN;
import static io.rubinbft.orderer.config.SettingType.BYTES;
import static io.rubinbft.orderer.config.SettingType.DURATION;
import static io.rubinbft.orderer.config.SettingType.INT;
import static io.rubinbft.orderer.config.SettingType.PATH;
import static io.rubinbft.orderer.config.SettingType.PATH_LIST;
import static io.rubinbft.orderer.config.SettingType.STRING;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Every setting of the node configuration, with its embedded default. Keys and defaults follow
 * Fabric's orderer.yaml wherever Fabric has the setting, so an operator's knowledge (and
 * ORDERER_... environment variables in existing deployments) carries over; docs/CONFIGURATION.md
 * lists them.
 */
final class Settings {

  static final Setting LISTEN_ADDRESS = of("General.ListenAddress", STRING, "127.0.0.1");
  static final Setting LISTEN_PORT = of("General.ListenPort", INT, "7050");
  static final Setting TLS_ENABLED = of("General.TLS.Enabled", BOOLEAN, "true");
  static final Setting TLS_PRIVATE_KEY = of("General.TLS.PrivateKey", PATH, "tls/server.key");
  static final Setting TLS_CERTIFICATE = of("General.TLS.Certificate", PATH, "tls/server.crt");
  static final Setting TLS_ROOT_CAS = of("General.TLS.RootCAs", PATH_LIST, "tls/ca.crt");
  static final Setting TLS_CLIENT_AUTH = of("General.TLS.ClientAuthRequired", BOOLEAN, "false");
  static final Setting TLS_CLIENT_ROOT_CAS = of("General.TLS.ClientRootCAs", PATH_LIST, "");
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
  static final Setting ADMIN_TLS_ENABLED = of("Admin.TLS.Enabled", BOOLEAN, "true");
  static final Setting ADMIN_TLS_CERTIFICATE = of("Admin.TLS.Certificate", PATH, "tls/server.crt");
  static final Setting ADMIN_TLS_PRIVATE_KEY = of("Admin.TLS.PrivateKey", PATH, "tls/server.key");
  static final Setting ADMIN_TLS_CLIENT_AUTH = of("Admin.TLS.ClientAuthRequired", BOOLEAN, "true");
  static final Setting ADMIN_TLS_CLIENT_ROOT_CAS = of("Admin.TLS.ClientRootCAs", PATH_LIST, "");
  static final Setting PARTICIPATION_ENABLED = of("ChannelParticipation.Enabled", BOOLEAN, "true");
  static final Setting PARTICIPATION_MAX_BODY =
      of("ChannelParticipation.MaxRequestBodySize", BYTES, "1MB");

  static final Setting OPERATIONS_LISTEN_ADDRESS =
      of("Operations.ListenAddress", STRING, "127.0.0.1:8443");
  static final Setting OPERATIONS_TLS_ENABLED = of("Operations.TLS.Enabled", BOOLEAN, "false");
  static final Setting OPERATIONS_TLS_CERTIFICATE = of("Operations.TLS.Certificate", PATH, null);
  static final Setting OPERATIONS_TLS_PRIVATE_KEY = of("Operations.TLS.PrivateKey", PATH, null);
  static final Setting OPERATIONS_TLS_CLIENT_AUTH =
      of("Operations.TLS.ClientAuthRequired", BOOLEAN, "false");
  static final Setting OPERATIONS_TLS_CLIENT_ROOT_CAS =
      of("Operations.TLS.ClientRootCAs", PATH_LIST, "");
  static final Setting METRICS_PROVIDER = of("Metrics.Provider", STRING, "prometheus");

  static final List<Setting> ALL =
      List.of(
          LISTEN_ADDRESS,
          LISTEN_PORT,
          TLS_ENABLED,
          TLS_PRIVATE_KEY,
          TLS_CERTIFICATE,
          TLS_ROOT_CAS,
          TLS_CLIENT_AUTH,
          TLS_CLIENT_ROOT_CAS,
          MSP_DIR,
          MSP_ID,
          AUTH_TIME_WINDOW,
          MAX_RECV_MSG_SIZE,
          MAX_SEND_MSG_SIZE,
          NO_EXPIRATION_CHECKS,
          KEEPALIVE_SERVER_MIN_INTERVAL,
          KEEPALIVE_SERVER_INTERVAL,
          KEEPALIVE_SERVER_TIMEOUT,
          CONNECTIONS_MAX,
          CONNECTIONS_MAX_PER_ADDRESS,
          CONNECTIONS_MAX_HANDSHAKING,
          CONNECTIONS_MAX_HANDSHAKING_PER_ADDRESS,
          THROTTLING_RATE,
          THROTTLING_INACTIVITY_TIMEOUT,
          CLUSTER_TRANSPORT,
          CLUSTER_LISTEN_ADDRESS,
          CLUSTER_LISTEN_PORT,
          CLUSTER_CERTIFICATE,
          CLUSTER_PRIVATE_KEY,
          CLUSTER_SHM_DIRECTORY,
          CLUSTER_RDMA_DEVICE,
          CLUSTER_RDMA_PORT,
          CLUSTER_RDMA_GID_INDEX,
          CLUSTER_REPLICATION_PULL_TIMEOUT,
          CLUSTER_REPLICATION_RETRY_TIMEOUT,
          LEDGER_LOCATION,
          WAL_DIR,
          ADMIN_LISTEN_ADDRESS,
          ADMIN_TLS_ENABLED,
          ADMIN_TLS_CERTIFICATE,
          ADMIN_TLS_PRIVATE_KEY,
          ADMIN_TLS_CLIENT_AUTH,
          ADMIN_TLS_CLIENT_ROOT_CAS,
          PARTICIPATION_ENABLED,
          PARTICIPATION_MAX_BODY,
          OPERATIONS_LISTEN_ADDRESS,
          OPERATIONS_TLS_ENABLED,
          OPERATIONS_TLS_CERTIFICATE,
          OPERATIONS_TLS_PRIVATE_KEY,
          OPERATIONS_TLS_CLIENT_AUTH,
          OPERATIONS_TLS_CLIENT_ROOT_CAS,
          METRICS_PROVIDER);

  private Settings() {}

  private static Setting of(String key, SettingType type, @Nullable String defaultValue) {
    return new Setting(key, type, defaultValue);
  }
}
