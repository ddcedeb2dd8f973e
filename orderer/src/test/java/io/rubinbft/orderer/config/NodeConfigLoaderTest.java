package io.rubinbft.orderer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigLoaderTest {

  @TempDir Path dir;
  private Path file;

  @BeforeEach
  void nodeFolderWithCryptogenLayout() throws IOException {
    Files.createDirectories(dir.resolve("msp"));
    Files.createDirectories(dir.resolve("tls"));
    for (String name : List.of("server.crt", "server.key", "ca.crt", "admin-ca.crt")) {
      Files.writeString(dir.resolve("tls").resolve(name), "pem");
    }
    file = dir.resolve("orderer.yaml");
  }

  @Test
  void embeddedDefaultsFollowFabricAndResolveAgainstTheConfigFolder() throws IOException {
    write(
        """
        General:
          LocalMSPID: OrdererMSP
        Admin:
          TLS:
            ClientRootCAs: [tls/admin-ca.crt]
        """);

    NodeConfig config = NodeConfigLoader.load(file, Map.of());

    assertThat(config.listen()).isEqualTo(new HostPort("127.0.0.1", 7050));
    assertThat(config.tls().enabled()).isTrue();
    assertThat(config.tls().certificate()).isEqualTo(dir.resolve("tls/server.crt"));
    assertThat(config.tls().rootCas()).containsExactly(dir.resolve("tls/ca.crt"));
    assertThat(config.mspDirectory()).isEqualTo(dir.resolve("msp"));
    assertThat(config.authenticationTimeWindow()).isEqualTo(Duration.ofMinutes(15));
    assertThat(config.maxReceiveMessageBytes()).isEqualTo(100L << 20);
    assertThat(config.cluster().transport()).isEqualTo(ClusterTransport.TCP);
    assertThat(config.cluster().listenPort()).isEmpty();
    assertThat(config.cluster().certificate()).isEqualTo(dir.resolve("tls/server.crt"));
    assertThat(config.walDirectory()).isEqualTo(config.ledgerDirectory().resolve("wal"));
    assertThat(config.admin().listen()).isEqualTo(new HostPort("127.0.0.1", 9443));
    assertThat(config.admin().tls().clientAuthRequired()).isTrue();
    assertThat(config.admin().maxRequestBodySize()).isEqualTo(1L << 20);
    assertThat(config.operations().listen()).isEqualTo(new HostPort("127.0.0.1", 8443));
    assertThat(config.operations().tls().enabled()).isFalse();
    assertThat(config.operations().metricsEnabled()).isTrue();
    assertThat(config.connections()).isEqualTo(ConnectionLimits.DEFAULTS);
  }

  @Test
  void theGrpcConnectionCapsComeFromTheFileAndTheEnvironmentAndMustBePositive() throws IOException {
    write(
        """
        General:
          LocalMSPID: OrdererMSP
          Connections: {Max: 1000, MaxHandshaking: 100}
        Admin:
          TLS: {ClientRootCAs: [tls/admin-ca.crt]}
        """);

    NodeConfig config =
        NodeConfigLoader.load(file, Map.of("ORDERER_GENERAL_CONNECTIONS_MAXPERADDRESS", "50"));

    assertThat(config.connections())
        .isEqualTo(
            new ConnectionLimits(
                1000, 50, 100, ConnectionLimits.DEFAULTS.maxHandshakingPerAddress()));
    assertThatThrownBy(
            () ->
                NodeConfigLoader.load(
                    file, Map.of("ORDERER_GENERAL_CONNECTIONS_MAXHANDSHAKINGPERADDRESS", "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("General.Connections.MaxHandshakingPerAddress");
  }

  @Test
  void environmentOverridesTheFileWhichOverridesDefaults() throws IOException {
    write(
        """
        general:
          listenport: 7051
          localmspid: OrdererMSP
          authentication: {timewindow: 1h30m}
          cluster: {transport: shm}
        FileLedger: {Location: data}
        Admin:
          TLS: {ClientRootCAs: [tls/admin-ca.crt]}
        """);

    NodeConfig config =
        NodeConfigLoader.load(
            file,
            Map.of(
                "ORDERER_GENERAL_LISTENPORT", "7052",
                "ORDERER_GENERAL_CLUSTER_TRANSPORT", "RDMA",
                "ORDERER_ADMIN_TLS_CLIENTROOTCAS", "[tls/ca.crt, tls/admin-ca.crt]",
                "ORDERER_GENERAL_MAXRECVMSGSIZE", "512KB"));

    assertThat(config.listen().port()).isEqualTo(7052);
    assertThat(config.authenticationTimeWindow()).isEqualTo(Duration.ofMinutes(90));
    assertThat(config.cluster().transport()).isEqualTo(ClusterTransport.RDMA);
    assertThat(config.ledgerDirectory()).isEqualTo(dir.resolve("data"));
    assertThat(config.admin().tls().clientRootCas())
        .containsExactly(dir.resolve("tls/ca.crt"), dir.resolve("tls/admin-ca.crt"));
    assertThat(config.maxReceiveMessageBytes()).isEqualTo(512L << 10);
  }

  @Test
  void theShmDirectoryIsCheckedWhenTheShmTransportIsChosen() throws IOException {
    Files.writeString(dir.resolve("not-a-directory"), "");
    write(
        """
        General:
          LocalMSPID: OrdererMSP
          Cluster: {Transport: shm, ShmDirectory: not-a-directory/shm}
        Admin:
          TLS: {ClientRootCAs: [tls/admin-ca.crt]}
        """);
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "General.Cluster.ShmDirectory (from "
                + file
                + ") is '"
                + dir.resolve("not-a-directory/shm")
                + "' but is not a directory");

    NodeConfig tcp =
        NodeConfigLoader.load(file, Map.of("ORDERER_GENERAL_CLUSTER_TRANSPORT", "tcp"));
    assertThat(tcp.cluster().transport()).isEqualTo(ClusterTransport.TCP);

    NodeConfig shm =
        NodeConfigLoader.load(
            file, Map.of("ORDERER_GENERAL_CLUSTER_SHMDIRECTORY", "not-yet/created"));
    assertThat(shm.cluster().shmDirectory()).isEqualTo(dir.resolve("not-yet/created"));
  }

  @Test
  void missingFileMeansEmbeddedDefaults() {
    assertThatThrownBy(() -> NodeConfigLoader.load(dir.resolve("absent.yaml"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage("General.LocalMSPID is required but not set");
  }

  @Test
  void unknownKeysAreErrorsNotSilentDefaults() throws IOException {
    write("General:\n  TLS:\n    Enable: true\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .hasMessage(
            "unknown setting 'General.TLS.Enable' in "
                + file
                + ": neither a setting of this orderer nor one of Fabric's orderer.yaml (did you"
                + " mean 'General.TLS.Enabled'?)");

    write("Kafak:\n  Verbose: true\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .hasMessage(
            "unknown section 'Kafak' in "
                + file
                + ": neither a section of this orderer nor one of Fabric's orderer.yaml (did you"
                + " mean 'Kafka'?)");
  }

  @Test
  void wrongValuesNameTheSettingTheValueAndItsSource() throws IOException {
    write("General:\n  LocalMSPID: OrdererMSP\n  ListenPort: 70500\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .hasMessage(
            "General.ListenPort (from " + file + ") is '70500' but must be between 0 and 65535");

    assertThatThrownBy(
            () -> NodeConfigLoader.load(file, Map.of("ORDERER_GENERAL_LISTENPORT", "seven")))
        .hasMessage(
            "General.ListenPort (from ORDERER_GENERAL_LISTENPORT) is 'seven' but is not a whole"
                + " number");

    assertThatThrownBy(
            () ->
                NodeConfigLoader.load(
                    file,
                    Map.of(
                        "ORDERER_GENERAL_LISTENPORT", "7050",
                        "ORDERER_GENERAL_AUTHENTICATION_TIMEWINDOW", "15 minutes")))
        .hasMessageContaining("is '15 minutes' but is not a duration");
  }

  @Test
  void rdmaSettingsDefaultToTheFirstDevicesPortOneAndTheGidRdmaCmDerives() throws IOException {
    write(
        """
        General:
          LocalMSPID: OrdererMSP
          Cluster: {Transport: rdma}
        Admin:
          TLS: {ClientRootCAs: [tls/admin-ca.crt]}
        """);
    assertThat(NodeConfigLoader.load(file, Map.of()).cluster().rdma())
        .isEqualTo(new RdmaSettings(Optional.empty(), 1, OptionalInt.empty()));

    NodeConfig chosen =
        NodeConfigLoader.load(
            file,
            Map.of(
                "ORDERER_GENERAL_CLUSTER_RDMADEVICE", "mlx5_1",
                "ORDERER_GENERAL_CLUSTER_RDMAPORT", "2",
                "ORDERER_GENERAL_CLUSTER_RDMAGIDINDEX", "3"));
    assertThat(chosen.cluster().rdma())
        .isEqualTo(new RdmaSettings(Optional.of("mlx5_1"), 2, OptionalInt.of(3)));

    assertThatThrownBy(
            () -> NodeConfigLoader.load(file, Map.of("ORDERER_GENERAL_CLUSTER_RDMAPORT", "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("General.Cluster.RdmaPort (from ")
        .hasMessageEndingWith("is '0' but must be between 1 and 255");
    assertThatThrownBy(
            () -> NodeConfigLoader.load(file, Map.of("ORDERER_GENERAL_CLUSTER_RDMAGIDINDEX", "-1")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("General.Cluster.RdmaGidIndex (from ")
        .hasMessageEndingWith("is '-1' but must be between 0 and 65535");
  }

  @Test
  void rejectsAnUnknownTransport() throws IOException {
    write("General:\n  LocalMSPID: OrdererMSP\n  Cluster:\n    Transport: infiniband\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .hasMessage(
            "General.Cluster.Transport (from "
                + file
                + ") is 'infiniband' but must be tcp,"
                + " shm, rdma or disni");
  }

  /**
   * As in Fabric's orderer.yaml: Broadcast/Deliver under mutual TLS may list no ClientRootCAs, the
   * served channels' org TLS CAs are trusted (tls.ClientTrust, branch cfgfx).
   */
  @Test
  void broadcastDeliverMutualTlsNeedsNoClientRootCas() throws IOException {
    write(
        """
        General:
          LocalMSPID: OrdererMSP
          TLS: {ClientAuthRequired: true}
        Admin:
          TLS: {ClientRootCAs: [tls/admin-ca.crt]}
        """);

    NodeConfig config = NodeConfigLoader.load(file, Map.of());

    assertThat(config.tls().clientAuthRequired()).isTrue();
    assertThat(config.tls().clientRootCas()).isEmpty();
  }

  @Test
  void theAdminApiRequiresMutualTlsWithClientCas() throws IOException {
    write("General:\n  LocalMSPID: OrdererMSP\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .hasMessage(
            "Admin.TLS.ClientRootCAs (from default) is '' but must name at least one CA when"
                + " client authentication is on");

    assertThatThrownBy(
            () -> NodeConfigLoader.load(file, Map.of("ORDERER_ADMIN_TLS_CLIENTAUTHREQUIRED", "no")))
        .hasMessageContaining("is 'no' but must be true or false");
  }

  @Test
  void tlsFilesMustExist() throws IOException {
    Files.delete(dir.resolve("tls/server.key"));
    write("General:\n  LocalMSPID: OrdererMSP\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, Map.of()))
        .hasMessage(
            "General.TLS.PrivateKey (from default) is '"
                + dir.resolve("tls/server.key")
                + "' but is not a readable file");
  }

  private void write(String yaml) throws IOException {
    Files.writeString(file, yaml);
  }
}
