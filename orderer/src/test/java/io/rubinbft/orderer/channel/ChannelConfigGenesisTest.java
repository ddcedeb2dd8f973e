package io.rubinbft.orderer.channel;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** bft-genesis.block, made by configtxgen, read as is; every value checked against the README. */
class ChannelConfigGenesisTest {

  private static ChannelConfig genesis;

  @BeforeAll
  static void read() throws InvalidConfigException {
    genesis = ConfigBlockReader.read(Fixtures.bytes("bft-genesis.block"));
  }

  @Test
  void channelAndSequence() {
    assertThat(genesis.channelId()).isEqualTo("fixture");
    assertThat(genesis.blockNumber()).isZero();
    assertThat(genesis.sequence()).isZero();
    assertThat(genesis.config().getChannelGroup().getGroupsMap())
        .containsKeys("Orderer", "Application");
    assertThat(genesis.blockValidationPolicy()).isEqualTo("/Channel/Orderer/BlockValidation");
  }

  @Test
  void capabilitiesAndConsensusType() {
    assertThat(genesis.capabilities())
        .isEqualTo(new Capabilities(Set.of("V3_0"), Set.of("V2_0"), Set.of("V2_5")));
    assertThat(genesis.consensusState()).isEqualTo(ConsensusState.NORMAL);
  }

  @Test
  void consenterMappingIsTheReadmesTable() {
    ConsenterMapping mapping = genesis.consenters();
    assertThat(mapping.size()).isEqualTo(4);
    assertThat(mapping.quorums().f()).isEqualTo(1);
    assertThat(mapping.quorums().quorum()).isEqualTo(3);
    for (int n = 1; n <= 4; n++) {
      Consenter consenter = mapping.byId(n).orElseThrow();
      assertThat(consenter.host()).isEqualTo("127.0.0.1");
      assertThat(consenter.port()).isEqualTo(7150 + n - 1);
      assertThat(consenter.mspId()).isEqualTo("OrdererMSP");
      assertThat(consenter.identity().toByteArray()).isEqualTo(Fixtures.ordererSigncertPem(n));
      assertThat(consenter.identityCertificate().getSubjectX500Principal().getName())
          .startsWith("CN=orderer" + n + ".example.com,OU=orderer");
      var tls = Fixtures.certificate(Fixtures.bytes(Fixtures.ordererDir(n) + "/tls/server.crt"));
      assertThat(consenter.serverTlsCertificate()).isEqualTo(tls);
      assertThat(consenter.clientTlsCertificate()).isEqualTo(tls);
      assertThat(mapping.replicaIndex(n)).contains(n - 1);
    }
  }

  @Test
  void consenterMappingMatchesFacts() throws NoSuchAlgorithmException {
    JsonArray facts = config(0).getAsJsonArray("consenter_mapping");
    assertThat(facts).hasSize(4);
    for (JsonElement element : facts) {
      JsonObject fact = element.getAsJsonObject();
      Consenter consenter = genesis.consenters().byId(fact.get("id").getAsLong()).orElseThrow();
      assertThat(consenter.host()).isEqualTo(fact.get("host").getAsString());
      assertThat(consenter.port()).isEqualTo(fact.get("port").getAsInt());
      assertThat(consenter.mspId()).isEqualTo(fact.get("msp_id").getAsString());
      byte[] pemHash =
          MessageDigest.getInstance("SHA-256").digest(consenter.identity().toByteArray());
      assertThat(HexFormat.of().formatHex(pemHash))
          .isEqualTo(fact.get("identity_pem_sha256").getAsString());
    }
  }

  @Test
  void smartBftOptionsAsEncoded() {
    Options options = genesis.smartBftOptions();
    assertThat(options.getRequestBatchMaxInterval()).isEqualTo("200ms");
    assertThat(options.getIncomingMessageBufferSize()).isEqualTo(200);
    assertThat(options.getRequestPoolSize()).isEqualTo(100_000);
    assertThat(options.getRequestForwardTimeout()).isEqualTo("5s");
    assertThat(options.getRequestComplainTimeout()).isEqualTo("20s");
    assertThat(options.getRequestAutoRemoveTimeout()).isEqualTo("3m0s");
    assertThat(options.getViewChangeResendInterval()).isEqualTo("5s");
    assertThat(options.getViewChangeTimeout()).isEqualTo("20s");
    assertThat(options.getLeaderHeartbeatTimeout()).isEqualTo("1m0s");
    assertThat(options.getLeaderHeartbeatCount()).isEqualTo(10);
    assertThat(options.getCollectTimeout()).isEqualTo("1s");
    assertThat(options.getLeaderRotation()).isEqualTo(Options.Rotation.ROTATION_UNSPECIFIED);
    assertThat(options.getRequestBatchMaxCount()).isZero();
    assertThat(options.getRequestBatchMaxBytes()).isZero();
    assertThat(options.getRequestMaxBytes()).isZero();
    assertThat(options.getDecisionsPerLeader()).isZero();
  }

  @Test
  void pbftSettingsFromOptionsAndBatchSize() {
    assertThat(genesis.pbft())
        .isEqualTo(
            new PbftSettings(
                10,
                10_485_760,
                Duration.ofMillis(200),
                10_485_760,
                100_000,
                Duration.ofSeconds(5),
                Duration.ofSeconds(20),
                Duration.ofMinutes(3),
                Duration.ofSeconds(20),
                Duration.ofSeconds(5)));
  }

  @Test
  void batchSizeTimeoutAndEndpoints() {
    assertThat(genesis.batchLimits()).isEqualTo(new BatchLimits(10, 10_485_760, 2_097_152));
    assertThat(genesis.batchTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(genesis.ordererEndpoints())
        .isEqualTo(
            Map.of(
                "OrdererOrg",
                List.of("127.0.0.1:7050", "127.0.0.1:7051", "127.0.0.1:7052", "127.0.0.1:7053")));
    JsonObject facts = config(0);
    JsonObject batch = facts.getAsJsonObject("batch_size");
    assertThat(genesis.batchLimits().maxMessageCount())
        .isEqualTo(batch.get("max_message_count").getAsInt());
    assertThat(genesis.batchLimits().absoluteMaxBytes())
        .isEqualTo(batch.get("absolute_max_bytes").getAsLong());
    assertThat(genesis.batchLimits().preferredMaxBytes())
        .isEqualTo(batch.get("preferred_max_bytes").getAsLong());
  }

  @Test
  void joinBlockAsStoredIsTheGenesisBlock() throws InvalidConfigException {
    assertThat(Fixtures.bytes("blocks/bft-000.block"))
        .isEqualTo(Fixtures.bytes("bft-genesis.block"));
    assertThat(ConfigBlockReader.read(Fixtures.block(0))).isEqualTo(genesis);
  }

  @Test
  void laterConfigBlocks() throws InvalidConfigException {
    ChannelConfig six = ConfigBlockReader.read(Fixtures.bytes("config-update/config-block.block"));
    assertThat(six.blockNumber()).isEqualTo(6);
    assertThat(six.sequence()).isEqualTo(1);
    assertThat(six.batchLimits()).isEqualTo(new BatchLimits(20, 10_485_760, 2_097_152));
    assertThat(six.pbft().batchMaxCount()).isEqualTo(20);
    assertThat(six.consenters().consenters()).isEqualTo(genesis.consenters().consenters());
    assertThat(ConfigBlockReader.read(Fixtures.block(6))).isEqualTo(six);

    ChannelConfig seven = ConfigBlockReader.read(Fixtures.block(7));
    assertThat(seven.sequence()).isEqualTo(2);
    assertThat(seven.batchLimits().maxMessageCount()).isEqualTo(20);
    assertThat(seven.config().getChannelGroup().getGroupsMap().get("Application"))
        .isNotEqualTo(six.config().getChannelGroup().getGroupsMap().get("Application"));
  }

  private static JsonObject config(int block) {
    return Fixtures.json("blocks/facts.json")
        .getAsJsonArray("blocks")
        .get(block)
        .getAsJsonObject()
        .getAsJsonObject("config");
  }
}
