package io.rubinbft.orderer.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Builds a {@link NodeConfig} from an orderer.yaml-style file and ORDERER_... environment
 * variables, and checks it before anything starts: every error names the setting, its value and
 * where the value came from.
 */
public final class NodeConfigLoader {

  private NodeConfigLoader() {}

  /**
   * Loads {@code file} (if it does not exist, the embedded defaults with {@code file}'s folder as
   * the base for relative paths) with {@code environment} applied on top.
   *
   * @throws ConfigException naming the first wrong setting
   */
  public static NodeConfig load(Path file, Map<String, String> environment) {
    SettingValues values = SettingValues.load(file, environment);
    SettingParser p = new SettingParser(values);
    TlsSettings tls = tls(p, Settings.TLS);
    Path ledger = p.path(Settings.LEDGER_LOCATION);
    return new NodeConfig(
        new HostPort(p.string(Settings.LISTEN_ADDRESS), p.integer(Settings.LISTEN_PORT, 0, 65535)),
        tls,
        existingDirectory(p, Settings.MSP_DIR),
        p.string(Settings.MSP_ID),
        p.duration(Settings.AUTH_TIME_WINDOW),
        p.bytes(Settings.MAX_RECV_MSG_SIZE),
        p.bytes(Settings.MAX_SEND_MSG_SIZE),
        keepalive(p),
        connections(p),
        !p.bool(Settings.NO_EXPIRATION_CHECKS),
        throttling(p),
        cluster(p, tls),
        ledger,
        p.optionalPath(Settings.WAL_DIR).orElse(ledger.resolve("wal")),
        admin(p),
        operations(p),
        values.warnings());
  }

  private static KeepaliveSettings keepalive(SettingParser p) {
    return new KeepaliveSettings(
        p.positiveDuration(Settings.KEEPALIVE_SERVER_MIN_INTERVAL),
        p.positiveDuration(Settings.KEEPALIVE_SERVER_INTERVAL),
        p.positiveDuration(Settings.KEEPALIVE_SERVER_TIMEOUT));
  }

  private static ConnectionLimits connections(SettingParser p) {
    return new ConnectionLimits(
        p.integer(Settings.CONNECTIONS_MAX, 1, Integer.MAX_VALUE),
        p.integer(Settings.CONNECTIONS_MAX_PER_ADDRESS, 1, Integer.MAX_VALUE),
        p.integer(Settings.CONNECTIONS_MAX_HANDSHAKING, 1, Integer.MAX_VALUE),
        p.integer(Settings.CONNECTIONS_MAX_HANDSHAKING_PER_ADDRESS, 1, Integer.MAX_VALUE));
  }

  /**
   * Fabric's per-client Broadcast throttling; off at Rate 0 (its default and its sample's). An
   * InactivityTimeout of 0 means Fabric's default, as Fabric's config loading completes it.
   */
  private static ThrottlingSettings throttling(SettingParser p) {
    Duration inactivity = p.duration(Settings.THROTTLING_INACTIVITY_TIMEOUT);
    return new ThrottlingSettings(
        p.integer(Settings.THROTTLING_RATE, 0, Integer.MAX_VALUE),
        inactivity.isZero() ? ThrottlingSettings.OFF.inactivityTimeout() : inactivity);
  }

  private static ClusterSettings cluster(SettingParser p, TlsSettings nodeTls) {
    String transportText = p.string(Settings.CLUSTER_TRANSPORT);
    ClusterTransport transport;
    try {
      transport = ClusterTransport.valueOf(transportText.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw p.fail(Settings.CLUSTER_TRANSPORT, transportText, "must be tcp, shm, rdma or disni");
    }
    OptionalInt port =
        p.optionalString(Settings.CLUSTER_LISTEN_PORT).isPresent()
            ? OptionalInt.of(p.integer(Settings.CLUSTER_LISTEN_PORT, 0, 65535))
            : OptionalInt.empty();
    // As in Fabric, the cluster identity defaults to the node's TLS key pair.
    Path certificate = p.optionalPath(Settings.CLUSTER_CERTIFICATE).orElse(nodeTls.certificate());
    Path key = p.optionalPath(Settings.CLUSTER_PRIVATE_KEY).orElse(nodeTls.privateKey());
    if (certificate == null || key == null) {
      throw new ConfigException(
          Settings.CLUSTER_CERTIFICATE.key()
              + " and "
              + Settings.CLUSTER_PRIVATE_KEY.key()
              + " are required when General.TLS.Enabled is false: replicas authenticate"
              + " each other with them");
    }
    requireFile(p, Settings.CLUSTER_CERTIFICATE, certificate);
    requireFile(p, Settings.CLUSTER_PRIVATE_KEY, key);
    return new ClusterSettings(
        transport,
        p.string(Settings.CLUSTER_LISTEN_ADDRESS),
        port,
        certificate,
        key,
        shmDirectory(p, transport),
        rdma(p),
        p.optionalString(Settings.CLUSTER_REPLICATION_PULL_TIMEOUT)
            .map(text -> p.positiveDuration(Settings.CLUSTER_REPLICATION_PULL_TIMEOUT)),
        p.optionalString(Settings.CLUSTER_REPLICATION_RETRY_TIMEOUT)
            .map(text -> p.positiveDuration(Settings.CLUSTER_REPLICATION_RETRY_TIMEOUT)));
  }

  private static RdmaSettings rdma(SettingParser p) {
    OptionalInt gidIndex =
        p.optionalString(Settings.CLUSTER_RDMA_GID_INDEX).isPresent()
            ? OptionalInt.of(p.integer(Settings.CLUSTER_RDMA_GID_INDEX, 0, 65535))
            : OptionalInt.empty();
    return new RdmaSettings(
        p.optionalString(Settings.CLUSTER_RDMA_DEVICE),
        p.integer(Settings.CLUSTER_RDMA_PORT, 1, 255),
        gidIndex);
  }

  /**
   * The shm transport's directory must be one this node can create files in (it is created at start
   * when missing); its value is not checked when another transport is chosen.
   */
  private static Path shmDirectory(SettingParser p, ClusterTransport transport) {
    Path directory = p.path(Settings.CLUSTER_SHM_DIRECTORY);
    if (transport != ClusterTransport.SHM) {
      return directory;
    }
    Path existing = directory.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    String text = directory.toString();
    if (existing == null || !Files.isDirectory(existing)) {
      throw p.fail(Settings.CLUSTER_SHM_DIRECTORY, text, "is not a directory");
    }
    if (!Files.isWritable(existing)) {
      throw p.fail(
          Settings.CLUSTER_SHM_DIRECTORY,
          text,
          (existing.equals(directory.toAbsolutePath()) ? "is" : existing + " is")
              + " not writable by this node (the shm transport creates its mapped files there)");
    }
    return directory;
  }

  private static AdminSettings admin(SettingParser p) {
    TlsSettings tls = endpointTls(p, Settings.ADMIN_TLS);
    boolean enabled = p.bool(Settings.PARTICIPATION_ENABLED);
    if (enabled && tls.enabled() && !tls.clientAuthRequired()) {
      throw p.fail(
          Settings.ADMIN_TLS.clientAuth(),
          "false",
          "the channel participation API requires mutual TLS, as Fabric's does");
    }
    return new AdminSettings(
        enabled,
        address(p, Settings.ADMIN_LISTEN_ADDRESS),
        tls,
        p.bytes(Settings.PARTICIPATION_MAX_BODY));
  }

  private static OperationsSettings operations(SettingParser p) {
    TlsSettings tls = endpointTls(p, Settings.OPERATIONS_TLS);
    String provider = p.string(Settings.METRICS_PROVIDER).toLowerCase(Locale.ROOT);
    if (!provider.equals("prometheus") && !provider.equals("disabled")) {
      throw p.fail(Settings.METRICS_PROVIDER, provider, "must be prometheus or disabled");
    }
    return new OperationsSettings(
        address(p, Settings.OPERATIONS_LISTEN_ADDRESS), tls, provider.equals("prometheus"));
  }

  /**
   * The admin or operations endpoint's TLS: these listeners trust only their ClientRootCAs, so
   * client authentication needs one named. (Broadcast/Deliver under mutual TLS also trusts the
   * served channels' TLS CAs, so there, as in Fabric, none is fine.)
   */
  private static TlsSettings endpointTls(SettingParser p, Settings.Tls keys) {
    TlsSettings tls = tls(p, keys);
    if (tls.clientAuthRequired() && tls.clientRootCas().isEmpty()) {
      throw p.fail(
          keys.clientRootCas(), "", "must name at least one CA when client authentication is on");
    }
    return tls;
  }

  private static TlsSettings tls(SettingParser p, Settings.Tls keys) {
    if (!p.bool(keys.enabled())) {
      return TlsSettings.plaintext();
    }
    Path cert = p.path(keys.certificate());
    Path privateKey = p.path(keys.privateKey());
    requireFile(p, keys.certificate(), cert);
    requireFile(p, keys.privateKey(), privateKey);
    boolean mutual = p.bool(keys.clientAuth());
    List<Path> clientRoots = p.paths(keys.clientRootCas());
    clientRoots.forEach(root -> requireFile(p, keys.clientRootCas(), root));
    return new TlsSettings(true, cert, privateKey, p.paths(keys.rootCas()), mutual, clientRoots);
  }

  private static HostPort address(SettingParser p, Setting setting) {
    String text = p.string(setting);
    try {
      return HostPort.parse(text);
    } catch (IllegalArgumentException e) {
      throw p.fail(setting, text, String.valueOf(e.getMessage()));
    }
  }

  private static Path existingDirectory(SettingParser p, Setting setting) {
    Path directory = p.path(setting);
    if (!Files.isDirectory(directory)) {
      throw p.fail(setting, directory.toString(), "is not a directory");
    }
    return directory;
  }

  private static void requireFile(SettingParser p, Setting setting, Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw p.fail(setting, file.toString(), "is not a readable file");
    }
  }
}
