package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.tools.local.LocalNodeConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.SignaturePolicyEnvelope;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class LocalNetworkTest {

  @TempDir Path dir;

  @Test
  void makesAGenesisBlockShapedLikeFabricsForTheGeneratedCrypto() throws IOException {
    NetworkSummary summary =
        LocalNetwork.generate(dir, new LocalNetworkSpec("mychannel", 4, PortPlan.DEFAULT, 500));

    Block block = Block.parseFrom(Files.readAllBytes(summary.genesisBlock()));
    Config config = FixtureGenesis.config(block);
    Set<String> fabricsPaths =
        paths("/Channel", FixtureGenesis.config(FixtureGenesis.block()).getChannelGroup());
    // The local network names no anchor peer (it runs no peer); everything else is there.
    assertThat(fabricsPaths.remove("/Channel/Application/Org1/AnchorPeers value mod_policy=Admins"))
        .isTrue();
    assertThat(paths("/Channel", config.getChannelGroup())).isEqualTo(fabricsPaths);
    assertThat(FixtureGenesis.channelHeader(block).getChannelId()).isEqualTo("mychannel");

    ConfigGroup orderer = config.getChannelGroup().getGroupsOrThrow("Orderer");
    List<Consenter> consenters =
        Orderers.parseFrom(orderer.getValuesOrThrow("Orderers").getValue())
            .getConsenterMappingList();
    assertThat(consenters).extracting(Consenter::getId).containsExactly(1, 2, 3, 4);
    assertThat(consenters).extracting(Consenter::getPort).containsExactly(7150, 7151, 7152, 7153);
    assertThat(consenters)
        .allMatch(c -> c.getHost().equals("127.0.0.1") && c.getMspId().equals("OrdererMSP"));
    assertThat(
            OrdererAddresses.parseFrom(
                    orderer.getGroupsOrThrow("OrdererOrg").getValuesOrThrow("Endpoints").getValue())
                .getAddressesList())
        .containsExactly("127.0.0.1:7050", "127.0.0.1:7051", "127.0.0.1:7052", "127.0.0.1:7053");
    assertThat(
            BatchSize.parseFrom(orderer.getValuesOrThrow("BatchSize").getValue())
                .getMaxMessageCount())
        .isEqualTo(500);
    assertThat(
            SignaturePolicyEnvelope.parseFrom(
                    orderer.getPoliciesOrThrow("BlockValidation").getPolicy().getValue())
                .getRule()
                .getNOutOf()
                .getN())
        .isEqualTo(3);
  }

  @Test
  void consentersAreTheGeneratedNodesIdentitiesAndTlsCertificates() throws IOException {
    NetworkSummary summary =
        LocalNetwork.generate(dir, new LocalNetworkSpec("mychannel", 4, PortPlan.DEFAULT, 500));
    List<Consenter> consenters =
        GenesisContents.of(Block.parseFrom(Files.readAllBytes(summary.genesisBlock())))
            .consenters();
    for (NetworkSummary.Node node : summary.nodes()) {
      Consenter consenter = consenters.get(node.id() - 1);
      Path signCert = node.mspDir().resolve("signcerts").resolve(node.name() + "-cert.pem");
      assertThat(consenter.getIdentity().toByteArray()).isEqualTo(Files.readAllBytes(signCert));
      assertThat(consenter.getServerTlsCert().toByteArray())
          .isEqualTo(Files.readAllBytes(node.tlsCert()));
      assertThat(consenter.getPort()).isEqualTo(node.clusterPort());
      assertThat(Files.exists(node.tlsKey())).isTrue();
    }
  }

  @Test
  void summaryNamesEveryNodesPortsAndFiles() throws IOException {
    NetworkSummary summary =
        LocalNetwork.generate(
            dir,
            new LocalNetworkSpec("mychannel", 4, new PortPlan(17050, 17150, 17250, 18443), 100));
    Map<String, Object> yaml =
        new Yaml().load(Files.readString(dir.resolve(LocalNetwork.SUMMARY_FILE)));
    assertThat(yaml)
        .containsEntry("channel", "mychannel")
        .containsEntry("ordererMspId", "OrdererMSP");
    List<?> nodes = (List<?>) yaml.get("nodes");
    assertThat(nodes).hasSize(4);
    @SuppressWarnings("unchecked")
    Map<String, Object> third = (Map<String, Object>) nodes.get(2);
    assertThat(third)
        .containsEntry("id", 3)
        .containsEntry("broadcastPort", 17052)
        .containsEntry("clusterPort", 17152)
        .containsEntry("adminPort", 17252)
        .containsEntry("operationsPort", 18445)
        .containsEntry("name", "orderer3.example.com");
    for (String file : List.of("mspDir", "tlsCert", "tlsKey", "tlsCaCert")) {
      assertThat(Path.of((String) third.get(file))).exists();
    }
    for (NetworkSummary.Identity identity : List.of(summary.ordererAdmin(), summary.client())) {
      for (Path file :
          List.of(
              identity.mspDir(),
              identity.signCert(),
              identity.privateKey(),
              identity.tlsCert(),
              identity.tlsKey(),
              identity.tlsCaCert())) {
        assertThat(file).exists();
      }
    }
    assertThat(summary.client().name()).isEqualTo("User1@org1.example.com");
  }

  /**
   * Attack: a consenter's TLS key (every other consenter sees its certificate; a compromised node
   * holds its own) used as an admin client on another node, to DELETE a channel. The local
   * network's admin API trusts a CA of its own that issued only the orderer admin's certificate, so
   * no consenter's TLS certificate chains to it.
   */
  @Test
  void theAdminApiTrustsAClientCaOfItsOwnNotTheConsentersTlsCa() throws Exception {
    NetworkSummary summary =
        LocalNetwork.generate(dir, new LocalNetworkSpec("mychannel", 4, PortPlan.DEFAULT, 500));
    List<Path> configs = LocalNodeConfigs.write(summary);
    @SuppressWarnings("unchecked")
    Map<String, Object> admin =
        (Map<String, Object>)
            ((Map<String, Object>) new Yaml().load(Files.readString(configs.getFirst())))
                .get("Admin");
    @SuppressWarnings("unchecked")
    List<String> clientRoots =
        (List<String>) ((Map<String, Object>) admin.get("TLS")).get("ClientRootCAs");
    X509Certificate adminCa = Pem.certificates(Path.of(clientRoots.getFirst())).getFirst();

    assertThat(clientRoots).hasSize(1);
    for (NetworkSummary.Node node : summary.nodes()) {
      X509Certificate consenterTls = Pem.certificates(node.tlsCert()).getFirst();
      assertThat(Pem.certificates(node.tlsCaCert()).getFirst()).isNotEqualTo(adminCa);
      assertThat(consenterTls.getIssuerX500Principal())
          .isNotEqualTo(adminCa.getSubjectX500Principal());
    }
    X509Certificate adminTls = Pem.certificates(summary.ordererAdmin().tlsCert()).getFirst();
    adminTls.verify(adminCa.getPublicKey());
  }

  @Test
  void rerunningKeepsEveryFileSoARestartResumes() throws IOException {
    LocalNetworkSpec spec = new LocalNetworkSpec("mychannel", 4, PortPlan.DEFAULT, 500);
    LocalNetwork.generate(dir, spec);
    Map<String, byte[]> before = CryptoGeneratorTest.relativeFiles(dir);
    LocalNetwork.generate(dir, spec);
    Map<String, byte[]> after = CryptoGeneratorTest.relativeFiles(dir);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    before.forEach((path, bytes) -> assertThat(after.get(path)).as(path).isEqualTo(bytes));
  }

  @Test
  void refusesMaterialMadeForFewerNodesOrOtherPorts() {
    LocalNetwork.generate(dir, new LocalNetworkSpec("mychannel", 4, PortPlan.DEFAULT, 500));
    assertThatThrownBy(
            () ->
                LocalNetwork.generate(
                    dir, new LocalNetworkSpec("mychannel", 5, PortPlan.DEFAULT, 500)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has no orderer5.example.com")
        .hasMessageContaining("fewer than 5 nodes");
    assertThatThrownBy(
            () ->
                LocalNetwork.generate(
                    dir,
                    new LocalNetworkSpec(
                        "mychannel", 4, new PortPlan(7050, 7160, 7250, 8443), 500)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("names other consenters");
  }

  @Test
  void blockValidationQuorumFollowsTheConsenterCount() throws IOException {
    NetworkSummary summary =
        LocalNetwork.generate(dir, new LocalNetworkSpec("seven", 7, PortPlan.DEFAULT, 500));
    Config config =
        FixtureGenesis.config(Block.parseFrom(Files.readAllBytes(summary.genesisBlock())));
    SignaturePolicyEnvelope validation =
        SignaturePolicyEnvelope.parseFrom(
            config
                .getChannelGroup()
                .getGroupsOrThrow("Orderer")
                .getPoliciesOrThrow("BlockValidation")
                .getPolicy()
                .getValue());
    // n = 7, f = 2: ceil((7 + 2 + 1) / 2) = 5 of 7.
    assertThat(validation.getRule().getNOutOf().getN()).isEqualTo(5);
    assertThat(validation.getIdentitiesCount()).isEqualTo(7);
  }

  @Test
  void genesisBlockCanNameFewerConsentersThanOrderersAreMade() throws IOException {
    LocalNetworkSpec spec = new LocalNetworkSpec("mychannel", 7, PortPlan.DEFAULT, 500);
    NetworkSummary summary = LocalNetwork.generate(dir, spec, 4);
    Block genesis = Block.parseFrom(Files.readAllBytes(summary.genesisBlock()));

    assertThat(summary.nodes()).hasSize(7);
    assertThat(Files.isDirectory(summary.nodes().getLast().mspDir())).isTrue();
    assertThat(GenesisContents.of(genesis).consenters())
        .extracting(Consenter::getId)
        .containsExactly(1, 2, 3, 4);
    OrdererAddresses endpoints =
        OrdererAddresses.parseFrom(
            FixtureGenesis.config(genesis)
                .getChannelGroup()
                .getGroupsOrThrow("Orderer")
                .getGroupsOrThrow(LocalNetwork.ORDERER_ORG)
                .getValuesOrThrow("Endpoints")
                .getValue());
    assertThat(endpoints.getAddressesList()).hasSize(4);
    assertThat(LocalNetwork.generate(dir, spec, 4).genesisBlock())
        .hasSameBinaryContentAs(summary.genesisBlock());
    assertThatThrownBy(() -> LocalNetwork.generate(dir, spec, 8))
        .hasMessageContaining("consenter count is 8 but must be in 1..7");
  }

  @Test
  void rejectsInvalidRequestsWithTheReason() {
    assertThatThrownBy(() -> new LocalNetworkSpec("MyChannel", 4, PortPlan.DEFAULT, 500))
        .hasMessageContaining("channel name is not valid: 'MyChannel' contains illegal characters");
    assertThatThrownBy(() -> new LocalNetworkSpec("c", 0, PortPlan.DEFAULT, 500))
        .hasMessageContaining("node count is 0");
    assertThatThrownBy(
            () -> new LocalNetworkSpec("c", 4, new PortPlan(7050, 7052, 7250, 8443), 500))
        .hasMessageContaining("ports 7052..7055 overlap 7050..7053");
  }

  private static Set<String> paths(String path, ConfigGroup group) {
    Set<String> paths = new TreeSet<>();
    paths.add(path + " mod_policy=" + group.getModPolicy() + " version=" + group.getVersion());
    group
        .getValuesMap()
        .forEach((k, v) -> paths.add(path + "/" + k + " value mod_policy=" + v.getModPolicy()));
    group
        .getPoliciesMap()
        .forEach((k, p) -> paths.add(path + "/" + k + " policy type=" + p.getPolicy().getType()));
    group.getGroupsMap().forEach((k, g) -> paths.addAll(paths(path + "/" + k, g)));
    return paths;
  }
}
