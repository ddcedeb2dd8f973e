package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.orderer.block.BlockAssembler;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.Fixtures;
import io.rubinbft.orderer.configtx.ConfigEdits;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.junit.jupiter.api.Test;

/**
 * The epoch switch rule, and bft-core's end-of-epoch barrier, which must be exactly that rule: a
 * config block ends the epoch when it changes the consenters or the PBFT settings, and no other
 * block does.
 */
class EpochRuleTest {

  private static final Block GENESIS_BLOCK = Fixtures.parseBlock("bft-genesis.block");
  private static final ChannelConfig GENESIS = read(GENESIS_BLOCK);
  private static final FabricProposals<?> ASSEMBLER = ChainState.proposals(null, null, null, null);

  @Test
  void aConfigBlockChangingThePbftSettingsEndsTheEpoch() {
    Proposal proposal = configProposal(ConfigEdits.maxMessageCount(GENESIS.config(), 7));

    assertThat(EpochRule.nextEpoch(GENESIS, proposal))
        .hasValueSatisfying(next -> assertThat(next.pbft()).isNotEqualTo(GENESIS.pbft()));
    assertThat(ASSEMBLER.forEpoch(GENESIS).endsEpoch(proposal)).isTrue();
  }

  @Test
  void aConfigBlockChangingNeitherConsentersNorSettingsLeavesTheEpochRunning() {
    Proposal proposal =
        configProposal(ConfigEdits.ordererEndpoints(GENESIS.config(), "OrdererOrg", endpoints()));

    assertThat(EpochRule.nextEpoch(GENESIS, proposal)).isEmpty();
    assertThat(ASSEMBLER.forEpoch(GENESIS).endsEpoch(proposal)).isFalse();
  }

  @Test
  void aBlockOfTransactionsNeverEndsTheEpoch() {
    Proposal proposal =
        new Proposal(
            1,
            Digest.GENESIS,
            List.of(new Request(new RequestId("client", "tx"), new byte[] {1, 2, 3})),
            payload(new byte[] {1, 2, 3}));

    assertThat(EpochRule.nextEpoch(GENESIS, proposal)).isEmpty();
    assertThat(ASSEMBLER.forEpoch(GENESIS).endsEpoch(proposal)).isFalse();
  }

  @Test
  void anAssemblerOfNoEpochEndsNone() {
    Proposal proposal = configProposal(ConfigEdits.maxMessageCount(GENESIS.config(), 7));

    assertThat(ASSEMBLER.endsEpoch(proposal)).isFalse();
  }

  private static List<String> endpoints() {
    return List.of("orderer9.example.com:7050");
  }

  private static Proposal configProposal(Config config) {
    Envelope envelope =
        Envelope.newBuilder()
            .setPayload(
                Payload.newBuilder()
                    .setHeader(
                        Header.newBuilder()
                            .setChannelHeader(
                                ChannelHeader.newBuilder()
                                    .setType(HeaderType.CONFIG_VALUE)
                                    .setChannelId(GENESIS.channelId())
                                    .build()
                                    .toByteString()))
                    .setData(ConfigEnvelope.newBuilder().setConfig(config).build().toByteString())
                    .build()
                    .toByteString())
            .build();
    return new Proposal(
        1,
        Digest.GENESIS,
        List.of(new Request(new RequestId("client", "config"), envelope.toByteArray())),
        payload(envelope.toByteArray()));
  }

  /** The proposal payload the primary assembles for block 1 holding {@code envelope}. */
  private static byte[] payload(byte[] envelope) {
    return ProposalBlocks.payload(
        BlockAssembler.assemble(
            GENESIS_BLOCK.getHeader(),
            List.of(ByteString.copyFrom(envelope)),
            0,
            ByteString.EMPTY));
  }

  private static ChannelConfig read(Block block) {
    try {
      return ConfigBlockReader.read(block);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
