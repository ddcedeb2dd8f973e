package io.rubinbft.orderer.channel;

import static io.rubinbft.orderer.channel.GenesisVariants.ordererGroup;
import static io.rubinbft.orderer.channel.GenesisVariants.parse;
import static io.rubinbft.orderer.channel.GenesisVariants.putChannelValue;
import static io.rubinbft.orderer.channel.GenesisVariants.putOrderer;
import static io.rubinbft.orderer.channel.GenesisVariants.withConfig;
import static io.rubinbft.orderer.channel.GenesisVariants.withOrdererValue;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Capabilities;
import org.hyperledger.fabric.protos.common.Capability;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.HashingAlgorithm;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.hyperledger.fabric.protos.orderer.BatchTimeout;
import org.hyperledger.fabric.protos.orderer.ConsensusType;
import org.hyperledger.fabric.protos.orderer.smartbft.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Config blocks this orderer cannot run: each refused with a message naming the field. */
class ConfigBlockRejectionTest {

  private static final String PREFIX = "config block 0 for channel 'fixture': ";

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void refused(String what, Block block, String message) {
    assertThatThrownBy(() -> ConfigBlockReader.read(block))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage(message);
  }

  static Stream<Arguments> variants() {
    return Stream.of(
        Arguments.of(
            "not BFT",
            withOrdererValue("ConsensusType", consensus().toBuilder().setType("etcdraft").build()),
            PREFIX + "ConsensusType is 'etcdraft' but this orderer only runs 'BFT'"),
        Arguments.of(
            "no messages per block",
            withOrdererValue("BatchSize", batchSize().toBuilder().setMaxMessageCount(0).build()),
            PREFIX + "/Channel/Orderer/BatchSize: MaxMessageCount is 0 but must be at least 1"),
        Arguments.of(
            "preferred above absolute",
            withOrdererValue(
                "BatchSize", batchSize().toBuilder().setPreferredMaxBytes(20_000_000).build()),
            PREFIX
                + "/Channel/Orderer/BatchSize: PreferredMaxBytes is 20000000 but must be between 1"
                + " and AbsoluteMaxBytes (10485760)"),
        Arguments.of(
            "batch timeout not a duration",
            withOrdererValue("BatchTimeout", BatchTimeout.newBuilder().setTimeout("soon").build()),
            PREFIX + "/Channel/Orderer/BatchTimeout: 'soon' is not a Go duration (e.g. \"200ms\")"),
        Arguments.of(
            "leader rotation on",
            withOptions(o -> o.setLeaderRotation(Options.Rotation.ROTATION_ON)),
            PREFIX
                + "SmartBFT option leader_rotation is ROTATION_ON but only ROTATION_OFF or"
                + " unspecified is supported (PBFT changes its primary only by view change)"),
        Arguments.of(
            "complain timeout missing",
            withOptions(o -> o.setRequestComplainTimeout("")),
            PREFIX
                + "SmartBFT option request_complain_timeout: '' is not a non-negative Go duration"),
        Arguments.of(
            "forward after complain",
            withOptions(o -> o.setRequestForwardTimeout("30s")),
            PREFIX
                + "SmartBFT option request_forward_timeout (PT30S) is longer than"
                + " request_complain_timeout (PT20S)"),
        Arguments.of(
            "single request above the block limit",
            withOptions(o -> o.setRequestMaxBytes(10_485_761)),
            PREFIX
                + "SmartBFT option request_max_bytes is 10485761 but must not exceed"
                + " BatchSize.AbsoluteMaxBytes (10485760)"),
        Arguments.of(
            "resend after view change timeout",
            withOptions(o -> o.setViewChangeResendInterval("1m")),
            PREFIX
                + "SmartBFT option view_change_resend_interval (PT1M) is longer than"
                + " view_change_timeout (PT20S)"),
        Arguments.of(
            "zero pool",
            withOptions(o -> o.setRequestPoolSize(0)),
            PREFIX + "SmartBFT option request_pool_size is 0 but must be between 1 and 2^31-1"),
        Arguments.of(
            "metadata not options",
            withOrdererValue(
                "ConsensusType",
                consensus().toBuilder()
                    .setMetadata(ByteString.copyFromUtf8("\u00ff\u00ff"))
                    .build()),
            PREFIX
                + "ConsensusType metadata is not orderer.smartbft.Options: While parsing a protocol"
                + " message, the input ended unexpectedly in the middle of a field.  This could"
                + " mean either that the input has been truncated or that an embedded message"
                + " misreported its own length."),
        Arguments.of(
            "no V3_0",
            withConfig(c -> putChannelValue(c, "Capabilities", capabilities("V2_0"))),
            PREFIX + "channel capabilities are [V2_0] but BFT needs V3_0"),
        Arguments.of(
            "unknown orderer capability",
            withOrdererValue("Capabilities", capabilities("V9_9")),
            PREFIX + "orderer capability 'V9_9' is not supported (known: [V1_1, V1_4_2, V2_0])"),
        Arguments.of(
            "SHA3",
            withConfig(
                c ->
                    putChannelValue(
                        c,
                        "HashingAlgorithm",
                        HashingAlgorithm.newBuilder().setName("SHA3_256").build())),
            PREFIX + "HashingAlgorithm is 'SHA3_256' but this orderer only hashes with 'SHA256'"),
        Arguments.of(
            "global orderer addresses",
            withConfig(
                c ->
                    putChannelValue(
                        c,
                        "OrdererAddresses",
                        OrdererAddresses.newBuilder().addAddresses("127.0.0.1:7050").build())),
            PREFIX
                + "/Channel/OrdererAddresses is set but V3_0 channels list endpoints per orderer"
                + " organization only"),
        Arguments.of(
            "no consenter mapping",
            withConfig(
                c -> {
                  ConfigGroup.Builder orderer = ordererGroup(c);
                  orderer.removeValues("Orderers");
                  putOrderer(c, orderer);
                }),
            PREFIX + "/Channel/Orderer/Orderers is missing"),
        Arguments.of(
            "duplicate consenter id",
            withConsenters(
                o -> o.setConsenterMapping(2, o.getConsenterMapping(2).toBuilder().setId(2))),
            PREFIX + "/Channel/Orderer/Orderers: consenter id 2 appears more than once"),
        Arguments.of(
            "consenter identity not a certificate",
            withConsenters(
                o ->
                    o.setConsenterMapping(
                        2,
                        o.getConsenterMapping(2).toBuilder()
                            .setIdentity(ByteString.copyFromUtf8("not a certificate")))),
            PREFIX
                + "/Channel/Orderer/Orderers consenter 3: identity is not an X.509 certificate:"
                + " Could not parse certificate: java.io.IOException: Empty input"),
        Arguments.of(
            "consenter port 0",
            withConsenters(
                o -> o.setConsenterMapping(0, o.getConsenterMapping(0).toBuilder().setPort(0))),
            PREFIX
                + "/Channel/Orderer/Orderers consenter 1: port is 0 but must be between 1 and 65535"),
        Arguments.of(
            "block validation quorum 2",
            withConfig(
                c -> {
                  ConfigGroup.Builder orderer = ordererGroup(c);
                  Orderers orderers =
                      parse(orderer.getValuesMap().get("Orderers").getValue(), Orderers.parser());
                  orderer.putPolicies(
                      "BlockValidation",
                      ConfigPolicy.newBuilder()
                          .setPolicy(BftQuorumPolicy.expected(orderers, 2))
                          .build());
                  putOrderer(c, orderer);
                }),
            PREFIX
                + "/Channel/Orderer/BlockValidation is not OutOf(3, SignedBy each consenter in"
                + " mapping order), the policy configtxgen writes for BFT"),
        Arguments.of(
            "org without endpoints",
            withConfig(
                c -> {
                  ConfigGroup.Builder orderer = ordererGroup(c);
                  ConfigGroup org =
                      orderer.getGroupsMap().get("OrdererOrg").toBuilder()
                          .removeValues("Endpoints")
                          .build();
                  orderer.putGroups("OrdererOrg", org);
                  putOrderer(c, orderer);
                }),
            PREFIX
                + "/Channel/Orderer/OrdererOrg/Endpoints is empty but every orderer organization"
                + " of a BFT channel needs endpoints"),
        Arguments.of(
            "not a CONFIG envelope",
            GenesisVariants.withEnvelope(
                envelope -> {
                  Payload payload = parse(envelope.getPayload(), Payload.parser());
                  ChannelHeader header =
                      parse(payload.getHeader().getChannelHeader(), ChannelHeader.parser());
                  ChannelHeader changed =
                      header.toBuilder().setType(HeaderType.ENDORSER_TRANSACTION_VALUE).build();
                  return envelope.toBuilder()
                      .setPayload(
                          payload.toBuilder()
                              .setHeader(
                                  payload.getHeader().toBuilder()
                                      .setChannelHeader(changed.toByteString()))
                              .build()
                              .toByteString())
                      .build();
                }),
            "config block 0: envelope type is ENDORSER_TRANSACTION but a config block's envelope"
                + " is CONFIG"),
        Arguments.of(
            "a system channel",
            withConfig(
                c ->
                    c.setChannelGroup(
                        c.getChannelGroup().toBuilder()
                            .putGroups("Consortiums", ConfigGroup.getDefaultInstance()))),
            PREFIX + "/Channel/Consortiums is present, but system channels are not supported"),
        Arguments.of(
            "no application group",
            withConfig(
                c ->
                    c.setChannelGroup(c.getChannelGroup().toBuilder().removeGroups("Application"))),
            PREFIX + "/Channel/Application is missing"),
        Arguments.of(
            "data hash not matching",
            Fixtures.block(0).toBuilder()
                .setHeader(
                    Fixtures.block(0).getHeader().toBuilder()
                        .setDataHash(ByteString.copyFrom(new byte[32])))
                .build(),
            "config block 0: header data_hash is "
                + "0".repeat(64)
                + " but the envelope hashes to "
                + "3e9de62909b4fe8b2ed85fa4f22c220c7e904e4a195ccfb13a5eeba67c7e8600"),
        Arguments.of(
            "no metadata",
            Fixtures.block(0).toBuilder().clearMetadata().build(),
            "config block 0: block has no metadata"),
        Arguments.of(
            "a data block",
            Fixtures.block(1),
            "config block 1: block holds 10 envelopes but a config block holds exactly 1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void refusedAsBytesToo(String what, Block block, String message) {
    assertThatThrownBy(() -> ConfigBlockReader.read(block.toByteArray())).hasMessage(message);
  }

  @Test
  void notABlockAtAll() {
    assertThatThrownBy(() -> ConfigBlockReader.read(new byte[] {(byte) 0xff}))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageStartingWith("config block is not a common.Block: ");
  }

  private static ConsensusType consensus() {
    return parse(ordererValue("ConsensusType").getValue(), ConsensusType.parser());
  }

  private static BatchSize batchSize() {
    return parse(ordererValue("BatchSize").getValue(), BatchSize.parser());
  }

  private static ConfigValue ordererValue(String key) {
    return genesisOrderer().getValuesMap().get(key);
  }

  private static ConfigGroup genesisOrderer() {
    try {
      return ConfigBlockReader.read(Fixtures.block(0))
          .config()
          .getChannelGroup()
          .getGroupsMap()
          .get("Orderer");
    } catch (InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Block withOptions(UnaryOperator<Options.Builder> change) {
    ConsensusType type = consensus();
    Options options = parse(type.getMetadata(), Options.parser());
    return withOrdererValue(
        "ConsensusType",
        type.toBuilder()
            .setMetadata(change.apply(options.toBuilder()).build().toByteString())
            .build());
  }

  private static Block withConsenters(UnaryOperator<Orderers.Builder> change) {
    Orderers orderers = parse(ordererValue("Orderers").getValue(), Orderers.parser());
    return withOrdererValue("Orderers", change.apply(orderers.toBuilder()).build());
  }

  private static Capabilities capabilities(String name) {
    return Capabilities.newBuilder().putCapabilities(name, Capability.getDefaultInstance()).build();
  }
}
