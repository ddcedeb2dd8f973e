package io.rubinbft.orderer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.node.OrdererNode;
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.FreePorts;
import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fabric's own orderer.yaml (v3.1.5's {@code sampleconfig/orderer.yaml}, unchanged, in the test
 * data) and the environment Fabric deployments set on top of it load into a node configuration:
 * settings with a meaning here are honoured, Fabric settings with none are named in one warning,
 * typos stay errors.
 */
class FabricOrdererYamlTest {

  private static final Path SAMPLE = FabricTestData.path("sampleconfig/orderer.yaml");

  @TempDir Path dir;

  /**
   * The variables a Fabric BFT deployment sets (as fabric-samples' test network does), with the
   * paths pointed at the golden data's orderer1.
   */
  private static Map<String, String> deploymentEnvironment(Path ledger) {
    Path node = FabricFixtures.orderer(1);
    Path tls = node.resolve("tls");
    Map<String, String> env = new HashMap<>();
    env.put("ORDERER_GENERAL_LISTENADDRESS", "127.0.0.1");
    env.put("ORDERER_GENERAL_LISTENPORT", "7050");
    env.put("ORDERER_GENERAL_LOCALMSPID", "OrdererMSP");
    env.put("ORDERER_GENERAL_LOCALMSPDIR", node.resolve("msp").toString());
    env.put("ORDERER_GENERAL_TLS_ENABLED", "true");
    env.put("ORDERER_GENERAL_TLS_PRIVATEKEY", tls.resolve("server.key").toString());
    env.put("ORDERER_GENERAL_TLS_CERTIFICATE", tls.resolve("server.crt").toString());
    env.put("ORDERER_GENERAL_TLS_ROOTCAS", "[" + tls.resolve("ca.crt") + "]");
    env.put("ORDERER_GENERAL_CLUSTER_CLIENTCERTIFICATE", tls.resolve("server.crt").toString());
    env.put("ORDERER_GENERAL_CLUSTER_CLIENTPRIVATEKEY", tls.resolve("server.key").toString());
    env.put("ORDERER_GENERAL_CLUSTER_ROOTCAS", "[" + tls.resolve("ca.crt") + "]");
    env.put("ORDERER_GENERAL_CLUSTER_LISTENPORT", "7150");
    env.put("ORDERER_GENERAL_BOOTSTRAPMETHOD", "none");
    env.put("ORDERER_CHANNELPARTICIPATION_ENABLED", "true");
    env.put("ORDERER_ADMIN_TLS_ENABLED", "true");
    env.put("ORDERER_ADMIN_TLS_CERTIFICATE", tls.resolve("server.crt").toString());
    env.put("ORDERER_ADMIN_TLS_PRIVATEKEY", tls.resolve("server.key").toString());
    env.put("ORDERER_ADMIN_TLS_ROOTCAS", "[" + tls.resolve("ca.crt") + "]");
    env.put("ORDERER_ADMIN_TLS_CLIENTROOTCAS", "[" + tls.resolve("ca.crt") + "]");
    env.put("ORDERER_ADMIN_LISTENADDRESS", "127.0.0.1:7250");
    env.put("ORDERER_OPERATIONS_LISTENADDRESS", "127.0.0.1:8443");
    env.put("ORDERER_METRICS_PROVIDER", "prometheus");
    env.put("ORDERER_FILELEDGER_LOCATION", ledger.toString());
    env.put("ORDERER_CONSENSUS_WALDIR", ledger.resolve("wal").toString());
    return env;
  }

  @Test
  void fabricsSampleOrdererYamlLoadsWithTheDeploymentEnvironment() {
    NodeConfig config = NodeConfigLoader.load(SAMPLE, deploymentEnvironment(dir));

    Path tls = FabricFixtures.orderer(1).resolve("tls");
    assertThat(config.listen()).isEqualTo(new HostPort("127.0.0.1", 7050));
    assertThat(config.tls().certificate()).isEqualTo(tls.resolve("server.crt"));
    assertThat(config.mspId()).isEqualTo("OrdererMSP");
    assertThat(config.cluster().listenPort()).hasValue(7150);
    assertThat(config.admin().tls().clientAuthRequired()).isTrue();
    assertThat(config.operations().metricsEnabled()).isTrue();
    assertThat(config.ledgerDirectory()).isEqualTo(dir);
    // The sample's values, honoured.
    assertThat(config.keepalive())
        .isEqualTo(
            new KeepaliveSettings(
                Duration.ofSeconds(60), Duration.ofSeconds(7200), Duration.ofSeconds(20)));
    assertThat(config.maxReceiveMessageBytes()).isEqualTo(104857600L);
    assertThat(config.maxSendMessageBytes()).isEqualTo(104857600L);
    assertThat(config.authenticationTimeWindow()).isEqualTo(Duration.ofMinutes(15));
    assertThat(config.admin().maxRequestBodySize()).isEqualTo(1L << 20);
    // Empty values in the sample leave the defaults, as in Fabric.
    assertThat(config.cluster().listenHost()).isEqualTo("0.0.0.0");
    assertThat(config.tls().clientRootCas()).isEmpty();

    assertThat(config.warnings())
        .containsExactly(
            "ignoring settings of Fabric's orderer that have no meaning for this orderer"
                + " (docs/CONFIGURATION.md says why): General.Backoff, General.Cluster.SendBufferSize,"
                + " General.Profile, General.BCCSP, Metrics.Statsd, Consensus.SnapDir,"
                + " Admin.TLS.RootCAs (ORDERER_ADMIN_TLS_ROOTCAS),"
                + " General.BootstrapMethod (ORDERER_GENERAL_BOOTSTRAPMETHOD),"
                + " General.Cluster.RootCAs (ORDERER_GENERAL_CLUSTER_ROOTCAS)");
  }

  @Test
  void aNodeStartsFromFabricsSampleAndServes() throws Exception {
    int base = FreePorts.block(4);
    Map<String, String> env = deploymentEnvironment(dir);
    env.put("ORDERER_GENERAL_LISTENPORT", Integer.toString(base));
    env.put("ORDERER_GENERAL_CLUSTER_LISTENADDRESS", "127.0.0.1");
    env.put("ORDERER_GENERAL_CLUSTER_LISTENPORT", Integer.toString(base + 1));
    env.put("ORDERER_ADMIN_LISTENADDRESS", "127.0.0.1:" + (base + 2));
    env.put("ORDERER_OPERATIONS_LISTENADDRESS", "127.0.0.1:" + (base + 3));

    try (OrdererNode node =
        OrdererNode.start(NodeConfigLoader.load(SAMPLE, env), new LogLevels("info"))) {
      assertThat(node.grpcAddress().getPort()).isEqualTo(base);
      HttpResponse<String> metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (base + 3) + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("# TYPE fabric_version gauge");
    }
  }

  @Test
  void theSampleAsShippedNeedsOnlyItsFilesBesideIt() throws IOException {
    // Fabric resolves the sample's relative paths (msp, tls/...) against its folder; so do we.
    Path folder = dir.resolve("config");
    copyTree(FabricFixtures.orderer(1), folder);
    Files.copy(SAMPLE, folder.resolve("orderer.yaml"));

    NodeConfig config =
        NodeConfigLoader.load(
            folder.resolve("orderer.yaml"),
            Map.of("ORDERER_GENERAL_TLS_ENABLED", "true", "ORDERER_FILELEDGER_LOCATION", "data"));

    assertThat(config.mspDirectory()).isEqualTo(folder.resolve("msp"));
    assertThat(config.mspId()).isEqualTo("SampleOrg");
    assertThat(config.tls().rootCas()).containsExactly(folder.resolve("tls/ca.crt"));
    assertThat(config.admin().tls().enabled()).isFalse();
    assertThat(config.operations().metricsEnabled()).isFalse();
  }

  @Test
  void keepaliveThrottlingExpiryAndReplicationTimeoutsAreHonoured() throws IOException {
    Path file =
        write(
            """
            General:
              Keepalive: {ServerMinInterval: 30s, ServerInterval: 1h, ServerTimeout: 5s}
              Throttling: {Rate: 0, InactivityTimeout: 10s}
              Authentication: {NoExpirationChecks: false}
              Cluster: {ReplicationPullTimeout: 7s, ReplicationRetryTimeout: 2s}
            """);
    NodeConfig config = NodeConfigLoader.load(file, deploymentEnvironment(dir));

    assertThat(config.keepalive())
        .isEqualTo(
            new KeepaliveSettings(
                Duration.ofSeconds(30), Duration.ofHours(1), Duration.ofSeconds(5)));
    assertThat(config.cluster().replicationPullTimeout()).hasValue(Duration.ofSeconds(7));
    assertThat(config.cluster().replicationRetryTimeout()).hasValue(Duration.ofSeconds(2));
    assertThat(config.warnings()).allMatch(w -> !w.contains("Keepalive"));

    assertThat(config.throttling()).isEqualTo(new ThrottlingSettings(0, Duration.ofSeconds(10)));
    assertThat(config.throttling().enabled()).isFalse();
    assertThat(config.expirationChecks()).isTrue();

    Map<String, String> throttled = deploymentEnvironment(dir);
    throttled.put("ORDERER_GENERAL_THROTTLING_RATE", "100");
    throttled.put("ORDERER_GENERAL_THROTTLING_INACTIVITYTIMEOUT", "0s");
    assertThat(NodeConfigLoader.load(file, throttled).throttling())
        .isEqualTo(new ThrottlingSettings(100, Duration.ofSeconds(5)));

    Map<String, String> unchecked = deploymentEnvironment(dir);
    unchecked.put("ORDERER_GENERAL_AUTHENTICATION_NOEXPIRATIONCHECKS", "true");
    assertThat(NodeConfigLoader.load(file, unchecked).expirationChecks()).isFalse();

    Map<String, String> negative = deploymentEnvironment(dir);
    negative.put("ORDERER_GENERAL_THROTTLING_RATE", "-1");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, negative))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("General.Throttling.Rate (from ORDERER_GENERAL_THROTTLING_RATE)");

    Map<String, String> zero = deploymentEnvironment(dir);
    zero.put("ORDERER_GENERAL_KEEPALIVE_SERVERTIMEOUT", "0s");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, zero))
        .hasMessage(
            "General.Keepalive.ServerTimeout (from ORDERER_GENERAL_KEEPALIVE_SERVERTIMEOUT) is"
                + " '0s' but must be longer than zero");
  }

  @Test
  void fabricSettingsWithNoMeaningHereAreNamedInOneWarning() throws IOException {
    Path file =
        write(
            """
            General:
              GenesisMethod: file
              Cluster: {SendBufferSize: 10, DialTimeout: 5s, ReplicationPolicy: simple}
            Kafka:
              Verbose: true
              Topic: {ReplicationFactor: 1}
            Debug: {BroadcastTraceDir: /tmp/trace}
            Consensus: {SnapDir: /var/snap, WALDir: wal}
            FileLedger: {Prefix: hyperledger-fabric-ordererledger}
            """);
    Map<String, String> env = deploymentEnvironment(dir);
    env.remove("ORDERER_CONSENSUS_WALDIR");
    env.put("ORDERER_KAFKA_VERBOSE", "true");
    env.put("ORDERER_GENERAL_BCCSP_SW_HASH", "SHA2");

    NodeConfig config = NodeConfigLoader.load(file, env);

    assertThat(config.walDirectory()).isEqualTo(file.getParent().resolve("wal"));
    assertThat(config.warnings()).hasSize(1);
    assertThat(config.warnings().getFirst())
        .contains(
            "General.GenesisMethod",
            "General.Cluster.SendBufferSize",
            "General.Cluster.DialTimeout",
            "General.Cluster.ReplicationPolicy",
            "Kafka,",
            "Debug",
            "Consensus.SnapDir",
            "FileLedger.Prefix",
            "Kafka (ORDERER_KAFKA_VERBOSE)",
            "General.BCCSP (ORDERER_GENERAL_BCCSP_SW_HASH)")
        .doesNotContain("WALDir");
  }

  @Test
  void aTypoIsStillAnErrorThatNamesTheLikelySetting() throws IOException {
    Path file = write("General:\n  Keepalive:\n    ServerIntervall: 7200s\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(file, deploymentEnvironment(dir)))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "unknown setting 'General.Keepalive.ServerIntervall' in "
                + file
                + ": neither a setting of this orderer nor one of Fabric's orderer.yaml (did you"
                + " mean 'General.Keepalive.ServerInterval'?)");

    Path section = write("Generl:\n  ListenPort: 7050\n");
    assertThatThrownBy(() -> NodeConfigLoader.load(section, deploymentEnvironment(dir)))
        .hasMessage(
            "unknown section 'Generl' in "
                + section
                + ": neither a section of this orderer nor one of Fabric's orderer.yaml (did you"
                + " mean 'General'?)");
  }

  @Test
  void anOrdererVariableThatNamesNoSettingIsReported() {
    Map<String, String> env = deploymentEnvironment(dir);
    env.put("ORDERER_GENERAL_LISTENPROT", "7051");
    env.put("ORDERER_SERVICE_HOST", "10.0.0.1");
    env.put("OTHER_VARIABLE", "not ours");

    NodeConfig config = NodeConfigLoader.load(SAMPLE, env);

    assertThat(config.listen().port()).isEqualTo(7050);
    assertThat(config.warnings())
        .contains(
            "ignoring environment variables that name no orderer setting:"
                + " ORDERER_GENERAL_LISTENPROT (did you mean 'ORDERER_GENERAL_LISTENPORT'?),"
                + " ORDERER_SERVICE_HOST");
  }

  @Test
  void fabricCfgPathFindsTheFileAsFabricsOrdererDoes() throws IOException {
    Path configFolder = Files.createDirectories(dir.resolve("fabric-cfg"));
    Path working = Files.createDirectories(dir.resolve("work"));
    Path etc = Files.createDirectories(dir.resolve("etc"));
    Files.writeString(working.resolve("orderer.yaml"), "");
    Files.writeString(etc.resolve("orderer.yaml"), "");
    Files.writeString(configFolder.resolve("orderer.yml"), "");

    assertThat(ConfigFileLocator.locate(Map.of("FABRIC_CFG_PATH", "../fabric-cfg"), working, etc))
        .isEqualTo(working.resolve("../fabric-cfg").resolve("orderer.yml"));
    Files.writeString(configFolder.resolve("orderer.yaml"), "");
    assertThat(
            ConfigFileLocator.locate(
                Map.of("FABRIC_CFG_PATH", configFolder.toString()), working, etc))
        .isEqualTo(configFolder.resolve("orderer.yaml"));
    assertThat(ConfigFileLocator.locate(Map.of(), working, etc))
        .isEqualTo(working.resolve("orderer.yaml"));
    Files.delete(working.resolve("orderer.yaml"));
    assertThat(ConfigFileLocator.locate(Map.of(), working, etc))
        .isEqualTo(etc.resolve("orderer.yaml"));

    Path empty = Files.createDirectories(dir.resolve("empty"));
    Files.delete(etc.resolve("orderer.yaml"));
    assertThatThrownBy(
            () ->
                ConfigFileLocator.locate(Map.of("FABRIC_CFG_PATH", empty.toString()), working, etc))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "no orderer.yaml or orderer.yml in FABRIC_CFG_PATH ("
                + empty
                + "), in the working folder ("
                + working
                + ") or in "
                + etc);
    assertThat(ConfigFileLocator.locate(Map.of(), working, etc))
        .isEqualTo(working.resolve("orderer.yaml"));
  }

  private Path write(String yaml) throws IOException {
    Path file = dir.resolve("orderer-" + Integer.toUnsignedString(yaml.hashCode()) + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var paths = Files.walk(from)) {
      for (Path source : paths.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }
}
