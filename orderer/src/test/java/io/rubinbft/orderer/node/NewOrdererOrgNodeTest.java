package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.config.NodeConfigLoader;
import io.rubinbft.orderer.configtx.ComputedUpdates;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.operations.LogLevels;
import io.rubinbft.orderer.testing.AdminApi;
import io.rubinbft.orderer.testing.ConsenterUpdates;
import io.rubinbft.orderer.testing.FreePorts;
import io.rubinbft.orderer.tools.bootstrap.ChannelConfigFactory;
import io.rubinbft.orderer.tools.bootstrap.CryptoGenerator;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import io.rubinbft.orderer.tools.bootstrap.OrgKind;
import io.rubinbft.orderer.tools.bootstrap.OrgLayout;
import io.rubinbft.orderer.tools.bootstrap.OrgSpec;
import io.rubinbft.orderer.tools.bootstrap.Organization;
import io.rubinbft.orderer.tools.local.LocalNodeConfigs;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An orderer of a NEW orderer organization joins a running channel as an operator does it: the org
 * is added to /Channel/Orderer by a config update (signed by the existing orderer org's admin), its
 * node is started with its own MSP and TLS files and joined with {@code osnadmin channel join} and
 * the newest config block; it onboards, follows and catches up; then one update, signed by both
 * orgs' admins (the Orderer group's Admins policy is a MAJORITY of its orgs), makes it a consenter,
 * and the five order together.
 */
class NewOrdererOrgNodeTest {

  private static final String ORG = "Orderer2Org";
  private static final String MSP_ID = "Orderer2MSP";
  private static final String HOST = "orderer0";
  private static final String DOMAIN = "orderer2.example.com";

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;
  @AutoClose private OrdererNode newcomer;

  @Test
  void aNodeOfANewOrdererOrgFollowsCatchesUpAndBecomesAConsenter() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    EnvelopeFactory users = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    cluster.submit(users, 20);
    cluster.awaitTransactions(20);

    OrgLayout org =
        new CryptoGenerator(new SecureRandom(), Instant.now())
            .generate(dir.resolve("org2"), new OrgSpec(DOMAIN, OrgKind.ORDERER, List.of(HOST), 0));
    NetworkSummary.Node node = node(org, FreePorts.block(4));
    Config current = cluster.config();
    Config withOrg = withOrdererOrg(current, org, node);
    Envelope addOrg =
        SignedUpdates.signed(
            ComputedUpdates.compute(LocalCluster.CHANNEL, current, withOrg),
            List.of(cluster.ordererAdmin()));
    HttpResponse<String> added = cluster.update(cluster.nodes.get(1), addOrg.toByteArray());
    assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
    cluster.awaitConfigSequence(1);

    newcomer =
        OrdererNode.start(NodeConfigLoader.load(nodeConfig(node), Map.of()), new LogLevels("info"));
    HttpResponse<byte[]> configBlock = cluster.fetch(cluster.nodes.getFirst(), "config");
    assertThat(configBlock.statusCode()).isEqualTo(200);
    AdminApi osnadmin = adminOf(node);
    int adminPort = newcomer.adminAddress().getPort();
    HttpResponse<String> joined = osnadmin.join(adminPort, configBlock.body());
    assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
    cluster.submit(users, 10);
    cluster.awaitTransactions(20 + 1 + 10);
    await(
        () ->
            LocalCluster.ledger(newcomer).height()
                == LocalCluster.ledger(cluster.nodes.getFirst()).height(),
        "the new org's node caught up");
    assertThat(osnadmin.info(adminPort, LocalCluster.CHANNEL).body())
        .contains("\"consensusRelation\":\"follower\"");

    Config followed = cluster.config();
    Consenter fifth = consenter(org, node);
    Envelope addConsenter =
        SignedUpdates.signed(
            ConsenterUpdates.update(
                LocalCluster.CHANNEL,
                followed,
                consenters -> {
                  List<Consenter> next = new ArrayList<>(consenters);
                  next.add(fifth);
                  return next;
                }),
            List.of(cluster.ordererAdmin(), admin(org)));
    HttpResponse<String> made = cluster.update(cluster.nodes.get(2), addConsenter.toByteArray());
    assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
    cluster.awaitConfigSequence(2);
    await(
        () ->
            newcomer
                .channels()
                .runtime(LocalCluster.CHANNEL)
                .flatMap(ChannelRuntime::host)
                .map(h -> h.member())
                .orElse(false),
        "the new org's node orders as a consenter");

    List<OrdererNode> all = new ArrayList<>(cluster.nodes);
    all.add(newcomer);
    cluster.submit(users, 20, all);
    LocalCluster.awaitTransactions(20 + 1 + 10 + 1 + 20, all);
    List<Block> reference = LocalCluster.blocks(cluster.nodes.getFirst());
    assertThat(LocalCluster.blocks(newcomer).stream().map(Block::getHeader).toList())
        .isEqualTo(reference.stream().map(Block::getHeader).toList());
  }

  /** The new org's node, its four ports from {@code firstPort} on. */
  private NetworkSummary.Node node(OrgLayout org, int firstPort) {
    Path nodeDir = org.nodeDir(HOST);
    return new NetworkSummary.Node(
        5,
        HOST + "." + DOMAIN,
        "127.0.0.1",
        firstPort,
        firstPort + 1,
        firstPort + 2,
        firstPort + 3,
        nodeDir.resolve("msp"),
        nodeDir.resolve("tls/server.crt"),
        nodeDir.resolve("tls/server.key"),
        nodeDir.resolve("tls/ca.crt"),
        dir.resolve("node-org2"));
  }

  /** The new node's orderer.yaml, as our bootstrap writes one, its admin API trusting our admin. */
  private Path nodeConfig(NetworkSummary.Node node) throws Exception {
    NetworkSummary network = cluster.network;
    NetworkSummary own =
        new NetworkSummary(
            network.channelId(),
            network.genesisBlock(),
            network.cryptoDir(),
            MSP_ID,
            network.ordererAdmin(),
            network.adminClientCa(),
            network.clientMspId(),
            network.client(),
            List.of(node));
    return LocalNodeConfigs.write(own).getFirst();
  }

  /**
   * {@code osnadmin} against the new node: the existing orderer admin's TLS client certificate
   * (which the node's admin API trusts), the new org's TLS CA to verify the node's server.
   */
  private AdminApi adminOf(NetworkSummary.Node node) throws Exception {
    NetworkSummary.Identity admin = cluster.network.ordererAdmin();
    return AdminApi.as(
        new NetworkSummary.Identity(
            admin.name(),
            admin.mspDir(),
            admin.signCert(),
            admin.privateKey(),
            admin.tlsCert(),
            admin.tlsKey(),
            node.tlsCaCert()));
  }

  /** /Channel/Orderer with the new org's group, configtxgen's policies, its node's endpoint. */
  private static Config withOrdererOrg(Config config, OrgLayout org, NetworkSummary.Node node) {
    ConfigGroup group =
        ChannelConfigFactory.organizationGroup(
            Organization.orderer(
                ORG, MSP_ID, org.mspDir(), List.of(node.host() + ":" + node.broadcastPort())));
    ConfigGroup channel = config.getChannelGroup();
    ConfigGroup orderer =
        channel.getGroupsOrThrow("Orderer").toBuilder().putGroups(ORG, group).build();
    return config.toBuilder()
        .setChannelGroup(channel.toBuilder().putGroups("Orderer", orderer))
        .build();
  }

  private static Consenter consenter(OrgLayout org, NetworkSummary.Node node) throws Exception {
    Path nodeDir = org.nodeDir(HOST);
    ByteString tls = ByteString.copyFrom(Files.readAllBytes(node.tlsCert()));
    return Consenter.newBuilder()
        .setId(node.id())
        .setHost(node.host())
        .setPort(node.clusterPort())
        .setMspId(MSP_ID)
        .setIdentity(ByteString.copyFrom(Files.readAllBytes(org.signCert(nodeDir))))
        .setClientTlsCert(tls)
        .setServerTlsCert(tls)
        .build();
  }

  private static SigningIdentity admin(OrgLayout org) {
    return SigningIdentity.fromMspDirectory(
        org.adminDir().resolve("msp"), MSP_ID, CryptoProvider.preferNative());
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
  }
}
