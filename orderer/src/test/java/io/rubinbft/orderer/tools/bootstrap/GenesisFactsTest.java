package io.rubinbft.orderer.tools.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.junit.jupiter.api.Test;

/**
 * Our genesis block (fresh nonce and time) against the facts recorded for Fabric's block 0 in
 * testdata/fabric/blocks/facts.json.
 */
class GenesisFactsTest {

  @Test
  // Only the timestamp's sub-second part is a recorded fact (zero); its seconds are the time the
  // block was made.
  @SuppressWarnings("ProtoTimestampGetSecondsGetNano")
  void ourBlockHasEveryRecordedFactOfFabricsBlockZero() throws IOException {
    JsonObject facts =
        JsonParser.parseString(
                Files.readString(Fixtures.root().resolve("blocks").resolve("facts.json")))
            .getAsJsonObject()
            .getAsJsonArray("blocks")
            .get(0)
            .getAsJsonObject();
    JsonObject envelopeFacts = facts.getAsJsonArray("envelopes").get(0).getAsJsonObject();
    Block block =
        GenesisBlockFactory.create(
            "fixture",
            ChannelConfigFactory.create(FixtureGenesis.benchChannel()),
            new SecureRandom(),
            Instant.now());

    assertThat(block.getHeader().getNumber()).isEqualTo(facts.get("number").getAsLong());
    assertThat(HexFormat.of().formatHex(block.getHeader().getPreviousHash().toByteArray()))
        .isEqualTo(facts.get("previous_hash").getAsString());
    assertThat(block.getData().getDataCount()).isEqualTo(facts.get("tx_count").getAsInt());
    assertThat(block.getMetadata().getMetadataList().stream().map(m -> m.size()).toList())
        .isEqualTo(
            facts.getAsJsonArray("metadata_entry_lengths").asList().stream()
                .map(e -> e.getAsInt())
                .toList());
    Metadata signatures = Metadata.parseFrom(block.getMetadata().getMetadata(0));
    assertThat(HexFormat.of().formatHex(signatures.getValue().toByteArray()))
        .isEqualTo(facts.get("signatures_metadata_value").getAsString());
    assertThat(signatures.getSignaturesList()).isEmpty();
    OrdererBlockMetadata ordererMetadata = OrdererBlockMetadata.parseFrom(signatures.getValue());
    assertThat(ordererMetadata.getLastConfig().getIndex())
        .isEqualTo(facts.get("last_config_index").getAsLong());
    assertThat(HexFormat.of().formatHex(ordererMetadata.getConsenterMetadata().toByteArray()))
        .isEqualTo(facts.get("consenter_metadata").getAsString());

    ChannelHeader channelHeader = FixtureGenesis.channelHeader(block);
    SignatureHeader signatureHeader = FixtureGenesis.signatureHeader(block);
    assertThat(HeaderType.forNumber(channelHeader.getType()).name())
        .isEqualTo(envelopeFacts.get("type").getAsString());
    assertThat(channelHeader.getVersion()).isEqualTo(envelopeFacts.get("version").getAsInt());
    assertThat(channelHeader.getEpoch()).isEqualTo(envelopeFacts.get("epoch").getAsLong());
    assertThat(channelHeader.getChannelId()).isEqualTo(envelopeFacts.get("channel").getAsString());
    assertThat(channelHeader.getTimestamp().getNanos()).isZero();
    assertThat(signatureHeader.getCreator().toStringUtf8())
        .isEqualTo(envelopeFacts.get("creator").getAsString());
    assertThat(signatureHeader.getNonce().size())
        .isEqualTo(envelopeFacts.get("nonce_len").getAsInt());
    assertThat(envelopeFacts.get("tx_id_is_sha256_nonce_creator").getAsBoolean()).isTrue();
    // configtxgen leaves the envelope unsigned, so its "signature" does not verify.
    assertThat(FixtureGenesis.envelope(block).getSignature().isEmpty()).isTrue();
    assertThat(envelopeFacts.get("signature_ok").getAsBoolean()).isFalse();
  }
}
