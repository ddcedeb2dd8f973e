package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Instant;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our configtxgen against Fabric's: the fixtures' BenchChannel profile, fed the fixtures' cryptogen
 * output, must give the config Fabric's configtxgen wrote into bft-genesis.block.
 */
class GenesisBlockTest {

  static Block fabrics;
  static Config fabricsConfig;
  static Config ours;

  @BeforeAll
  static void build() throws IOException {
    fabrics = FixtureGenesis.block();
    fabricsConfig = FixtureGenesis.config(fabrics);
    ours = ChannelConfigFactory.create(FixtureGenesis.benchChannel());
  }

  @Test
  void configTreeHasTheSameGroupsValuesPoliciesModPoliciesAndVersions() {
    assertThat(ConfigTreeDiff.between(ours.getChannelGroup(), fabricsConfig.getChannelGroup()))
        .isEmpty();
  }

  @Test
  void wholeConfigIsEqualAndEveryValueByteIdentical() {
    // Map order aside (Go writes config maps in random order), the configs are the same message.
    assertThat(ours).isEqualTo(fabricsConfig);
    ConfigValue msp =
        ours.getChannelGroup()
            .getGroupsOrThrow("Orderer")
            .getGroupsOrThrow("OrdererOrg")
            .getValuesOrThrow("MSP");
    assertThat(msp.getValue())
        .isEqualTo(
            fabricsConfig
                .getChannelGroup()
                .getGroupsOrThrow("Orderer")
                .getGroupsOrThrow("OrdererOrg")
                .getValuesOrThrow("MSP")
                .getValue());
  }

  @Test
  void withFabricsNonceAndTimestampTheHeadersAndMetadataAreByteIdentical() throws IOException {
    SignatureHeader fabricsSignatureHeader = FixtureGenesis.signatureHeader(fabrics);
    ChannelHeader fabricsChannelHeader = FixtureGenesis.channelHeader(fabrics);
    Block block =
        GenesisBlockFactory.create(
            "fixture",
            ours,
            fabricsSignatureHeader.getNonce().toByteArray(),
            Instant.ofEpochSecond(fabricsChannelHeader.getTimestamp().getSeconds()));

    assertThat(FixtureGenesis.payload(block).getHeader())
        .isEqualTo(FixtureGenesis.payload(fabrics).getHeader());
    assertThat(block.getMetadata().toByteString()).isEqualTo(fabrics.getMetadata().toByteString());
    assertThat(FixtureGenesis.envelope(block).getSignature()).isEqualTo(ByteString.EMPTY);
    assertThat(FixtureGenesis.envelope(fabrics).getSignature()).isEqualTo(ByteString.EMPTY);
    assertThat(FixtureGenesis.config(block)).isEqualTo(fabricsConfig);
    assertThat(block.getHeader().getNumber()).isZero();
    assertThat(block.getHeader().getPreviousHash()).isEqualTo(ByteString.EMPTY);
  }

  @Test
  void dataHashIsFabricsOverOurEnvelopeBytes() {
    assertThat(fabrics.getHeader().getDataHash().toByteArray())
        .isEqualTo(BlockHashing.dataHash(fabrics.getData()));
    Block block = GenesisBlockFactory.create("fixture", ours, new SecureRandom(), Instant.now());
    assertThat(block.getHeader().getDataHash().toByteArray())
        .isEqualTo(BlockHashing.dataHash(block.getData()));
  }

  @Test
  void txIdIsTheHashOfNonceAndEmptyCreatorAsConfigtxgenMakesIt() throws IOException {
    SignatureHeader fabricsHeader = FixtureGenesis.signatureHeader(fabrics);
    assertThat(GenesisBlockFactory.txId(fabricsHeader.getNonce().toByteArray(), ByteString.EMPTY))
        .isEqualTo(FixtureGenesis.channelHeader(fabrics).getTxId());

    Block block = GenesisBlockFactory.create("fixture", ours, new SecureRandom(), Instant.now());
    SignatureHeader header = FixtureGenesis.signatureHeader(block);
    assertThat(header.getNonce().size()).isEqualTo(GenesisBlockFactory.NONCE_BYTES);
    assertThat(header.getCreator()).isEqualTo(ByteString.EMPTY);
    assertThat(FixtureGenesis.channelHeader(block).getTxId())
        .isEqualTo(GenesisBlockFactory.txId(header.getNonce().toByteArray(), ByteString.EMPTY));
  }
}
