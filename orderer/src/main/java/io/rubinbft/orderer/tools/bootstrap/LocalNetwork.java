package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.files.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.orderer.BatchSize;

/**
 * Makes everything a local BFT cluster on loopback needs, with no Fabric tool installed:
 * cryptogen's crypto tree for one orderer organization with n orderers and one application
 * organization with a client user, configtxgen's genesis block for a BFT channel with those n
 * consenters, and a summary ({@value #SUMMARY_FILE}) of each node's ports and files.
 *
 * <p>Re-running on the same folder keeps what is there (keys, certificates, the genesis block), so
 * a restarted cluster resumes with the identities its ledgers were made with. Material that does
 * not fit the request (fewer nodes, another channel) is reported, never silently replaced.
 */
public final class LocalNetwork {

  public static final String SUMMARY_FILE = "network.yaml";
  public static final String ORDERER_ORG = "OrdererOrg";
  public static final String ORDERER_MSP = "OrdererMSP";
  public static final String ORDERER_DOMAIN = "example.com";
  public static final String CLIENT_ORG = "Org1";
  public static final String CLIENT_MSP = "Org1MSP";
  public static final String CLIENT_DOMAIN = "org1.example.com";
  private static final String HOST = "127.0.0.1";
  private static final int ABSOLUTE_MAX_BYTES = 10 * 1024 * 1024;
  private static final int PREFERRED_MAX_BYTES = 2 * 1024 * 1024;
  private static final Duration BATCH_TIMEOUT = Duration.ofSeconds(2);

  private LocalNetwork() {}

  /** Generates (or keeps) the material under {@code dir} and writes the summary. */
  public static NetworkSummary generate(Path dir, LocalNetworkSpec spec) {
    return generate(dir, spec, spec.nodes());
  }

  /**
   * As {@link #generate(Path, LocalNetworkSpec)}, but the genesis block names only the first {@code
   * consenters} orderers (as consenters and as the orderer org's endpoints): the others have
   * crypto, ports and a place in the summary, ready to be added to the channel by config updates.
   */
  public static NetworkSummary generate(Path dir, LocalNetworkSpec spec, int consenters) {
    if (consenters < 1 || consenters > spec.nodes()) {
      throw new IllegalArgumentException(
          "consenter count is " + consenters + " but must be in 1.." + spec.nodes());
    }
    Path root = dir.toAbsolutePath().normalize();
    Path crypto = root.resolve("crypto");
    SecureRandom random = new SecureRandom();
    CryptoGenerator generator = new CryptoGenerator(random, Instant.now());
    OrgLayout orderers = generator.generate(crypto, ordererOrg(spec.nodes()));
    OrgLayout clients =
        generator.generate(crypto, new OrgSpec(CLIENT_DOMAIN, OrgKind.PEER, List.of("peer0"), 1));
    requireNodes(orderers, spec.nodes(), root);
    AdminClientCa adminCa =
        AdminClientCa.ensure(crypto, "Admin@" + ORDERER_DOMAIN, random, Instant.now());
    BftChannelProfile profile = profile(spec, consenters, orderers, clients);
    Path genesis = root.resolve("genesis").resolve(spec.channelId() + ".block");
    if (Files.exists(genesis)) {
      requireMatching(genesis, spec.channelId(), profile);
    } else {
      Block block =
          GenesisBlockFactory.create(
              spec.channelId(), ChannelConfigFactory.create(profile), random, Instant.now());
      AtomicFiles.write(genesis, block.toByteArray());
    }
    NetworkSummary summary = summary(root, spec, genesis, orderers, clients, adminCa);
    AtomicFiles.write(
        root.resolve(SUMMARY_FILE), summary.toYaml().getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  /** Crypto kept from an earlier run must have every node asked for now. */
  private static void requireNodes(OrgLayout orderers, int nodes, Path root) {
    for (int id = 1; id <= nodes; id++) {
      if (!Files.isDirectory(orderers.nodeDir(host(id)))) {
        throw new IllegalStateException(
            String.format(
                "%s has no %s.%s: it was made for fewer than %d nodes; remove %s to start over",
                orderers.orgDir(), host(id), ORDERER_DOMAIN, nodes, root));
      }
    }
  }

  private static OrgSpec ordererOrg(int nodes) {
    return new OrgSpec(
        ORDERER_DOMAIN,
        OrgKind.ORDERER,
        IntStream.rangeClosed(1, nodes).mapToObj(LocalNetwork::host).toList(),
        0);
  }

  private static String host(int id) {
    return "orderer" + id;
  }

  private static BftChannelProfile profile(
      LocalNetworkSpec spec, int consenterCount, OrgLayout orderers, OrgLayout clients) {
    PortPlan ports = spec.ports();
    List<String> endpoints =
        IntStream.range(0, consenterCount)
            .mapToObj(i -> HOST + ":" + (ports.broadcast() + i))
            .toList();
    List<ConsenterSpec> consenters =
        IntStream.rangeClosed(1, consenterCount)
            .mapToObj(
                id -> {
                  Path node = orderers.nodeDir(host(id));
                  Path tls = node.resolve("tls").resolve("server.crt");
                  return new ConsenterSpec(
                      id,
                      HOST,
                      ports.cluster() + id - 1,
                      ORDERER_MSP,
                      orderers.signCert(node),
                      tls,
                      tls);
                })
            .toList();
    return new BftChannelProfile(
        List.of(Organization.orderer(ORDERER_ORG, ORDERER_MSP, orderers.mspDir(), endpoints)),
        List.of(Organization.application(CLIENT_ORG, CLIENT_MSP, clients.mspDir(), List.of())),
        consenters,
        BatchSize.newBuilder()
            .setMaxMessageCount(spec.maxMessageCount())
            .setAbsoluteMaxBytes(ABSOLUTE_MAX_BYTES)
            .setPreferredMaxBytes(PREFERRED_MAX_BYTES)
            .build(),
        BATCH_TIMEOUT,
        SmartBftOptions.benchChannel());
  }

  /** An existing genesis block is kept only if it is for this channel and these consenters. */
  private static void requireMatching(Path genesis, String channelId, BftChannelProfile profile) {
    List<Consenter> expected =
        profile.consenters().stream().map(ConsenterSpec::toConsenter).toList();
    GenesisContents existing;
    try {
      existing = GenesisContents.of(Block.parseFrom(SmallFiles.read(genesis)));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          genesis + " is not a Fabric block; remove it to make a new one", e);
    }
    if (!existing.channelId().equals(channelId)) {
      throw new IllegalStateException(
          genesis + " is for channel '" + existing.channelId() + "', not '" + channelId + "'");
    }
    if (!existing.consenters().equals(expected)) {
      throw new IllegalStateException(
          genesis
              + " names other consenters (ids, ports or certificates) than the crypto material"
              + " and ports asked for; remove it to make a new one");
    }
  }

  private static NetworkSummary summary(
      Path root,
      LocalNetworkSpec spec,
      Path genesis,
      OrgLayout orderers,
      OrgLayout clients,
      AdminClientCa adminCa) {
    List<NetworkSummary.Node> nodes =
        IntStream.rangeClosed(1, spec.nodes())
            .mapToObj(
                id -> {
                  Path node = orderers.nodeDir(host(id));
                  Path tls = node.resolve("tls");
                  PortPlan ports = spec.ports();
                  return new NetworkSummary.Node(
                      id,
                      node.getFileName().toString(),
                      HOST,
                      ports.broadcast() + id - 1,
                      ports.cluster() + id - 1,
                      ports.admin() + id - 1,
                      ports.operations() + id - 1,
                      node.resolve("msp"),
                      tls.resolve("server.crt"),
                      tls.resolve("server.key"),
                      tls.resolve("ca.crt"),
                      root.resolve("data").resolve(node.getFileName().toString()));
                })
            .toList();
    return new NetworkSummary(
        spec.channelId(),
        genesis,
        orderers.cryptoRoot(),
        ORDERER_MSP,
        ordererAdmin(orderers, adminCa),
        adminCa.caCert(),
        CLIENT_MSP,
        identity(clients, clients.userDir(1)),
        nodes);
  }

  /**
   * The orderer admin: its MSP, and a TLS client certificate of the admin client CA (its TLS CA
   * file is still the orderer org's, which osnadmin verifies the nodes' server certificates with).
   */
  private static NetworkSummary.Identity ordererAdmin(OrgLayout orderers, AdminClientCa adminCa) {
    NetworkSummary.Identity admin = identity(orderers, orderers.adminDir());
    return new NetworkSummary.Identity(
        admin.name(),
        admin.mspDir(),
        admin.signCert(),
        admin.privateKey(),
        adminCa.clientCert(),
        adminCa.clientKey(),
        admin.tlsCaCert());
  }

  private static NetworkSummary.Identity identity(OrgLayout org, Path dir) {
    Path tls = dir.resolve("tls");
    return new NetworkSummary.Identity(
        dir.getFileName().toString(),
        dir.resolve("msp"),
        org.signCert(dir),
        dir.resolve("msp").resolve("keystore").resolve("priv_sk"),
        tls.resolve("client.crt"),
        tls.resolve("client.key"),
        tls.resolve("ca.crt"));
  }
}
