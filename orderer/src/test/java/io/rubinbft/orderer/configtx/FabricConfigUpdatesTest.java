package io.rubinbft.orderer.configtx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.common.Status;
import org.junit.jupiter.api.Test;

/**
 * Fabric's recorded config updates through our configtx: the same configs as Fabric's orderers made
 * (blocks 6 and 7), the same refusal of the wrongly signed update, and Fabric's own CONFIG
 * envelopes accepted by the backup's check exactly where they belong.
 */
class FabricConfigUpdatesTest {

  private static final ChannelConfig GENESIS = FixtureConfigs.config(0);
  private static final ChannelConfig AFTER_BATCH_SIZE = FixtureConfigs.config(6);
  private static final SigningIdentity ORDERER1 =
      SigningIdentity.fromMspDirectory(
          FabricFixtures.root()
              .resolve("crypto/ordererOrganizations/example.com/orderers/orderer1.example.com/msp"),
          "OrdererMSP",
          FixtureConfigs.PROVIDER);

  @Test
  void theBatchSizeUpdateOnGenesisYieldsFabricsConfigOfBlock6() throws Exception {
    Envelope update = FixtureConfigs.update("batchsize-update");

    ConfigEnvelope proposed = FixtureConfigs.processor(GENESIS).propose(update);

    assertThat(proposed.getConfig().getSequence()).isEqualTo(1);
    assertThat(proposed.getConfig()).isEqualTo(AFTER_BATCH_SIZE.config());
    assertThat(proposed.getConfig().getChannelGroup())
        .isEqualTo(AFTER_BATCH_SIZE.config().getChannelGroup());
    assertThat(proposed.getLastUpdate().toByteString())
        .isEqualTo(ByteString.copyFrom(Fixtures.bytes("config-update/batchsize-update.envelope")));
  }

  @Test
  void theAnchorPeerUpdateOnBlock6YieldsFabricsConfigOfBlock7() throws Exception {
    ConfigEnvelope proposed =
        FixtureConfigs.processor(AFTER_BATCH_SIZE)
            .propose(FixtureConfigs.update("anchorpeer-update"));

    assertThat(proposed.getConfig()).isEqualTo(FixtureConfigs.config(7).config());
    assertThat(proposed.getConfig().getSequence()).isEqualTo(2);
  }

  @Test
  void theOrg1AdminsBatchSizeUpdateIsRefusedWithFabricsExactAnswer() {
    String fabricInfo =
        JsonParser.parseString(Fixtures.text("config-update/submit-org1-admin-only-response.json"))
            .getAsJsonArray()
            .get(0)
            .getAsJsonObject()
            .get("info")
            .getAsString();

    assertThatThrownBy(
            () ->
                FixtureConfigs.processor(GENESIS)
                    .propose(FixtureConfigs.update("batchsize-update.org1-admin-only")))
        .isInstanceOfSatisfying(
            ConfigUpdateException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
              assertThat(e.getMessage()).isEqualTo(fabricInfo);
            });
  }

  @Test
  void ourConfigEnvelopeIsLaidOutAsFabricsAndSignedByThisOrderer() throws Exception {
    Instant now = Instant.parse("2026-11-21T05:23:23.750Z");
    ConfigEnvelopeSigner signer =
        new ConfigEnvelopeSigner(ORDERER1, Clock.fixed(now, ZoneOffset.UTC));

    Envelope ours =
        FixtureConfigs.processor(GENESIS)
            .process(FixtureConfigs.update("batchsize-update"), signer);

    Payload oursPayload = Payload.parseFrom(ours.getPayload());
    Payload fabricPayload = Payload.parseFrom(FixtureConfigs.configEnvelope(6).getPayload());
    assertThat(ChannelHeader.parseFrom(oursPayload.getHeader().getChannelHeader()))
        .isEqualTo(ChannelHeader.parseFrom(fabricPayload.getHeader().getChannelHeader()));
    SignatureHeader oursSignature =
        SignatureHeader.parseFrom(oursPayload.getHeader().getSignatureHeader());
    SignatureHeader fabricSignature =
        SignatureHeader.parseFrom(fabricPayload.getHeader().getSignatureHeader());
    assertThat(oursSignature.getCreator()).isEqualTo(fabricSignature.getCreator());
    assertThat(oursSignature.getNonce().size()).isEqualTo(fabricSignature.getNonce().size());
    assertThat(ConfigEnvelope.parseFrom(oursPayload.getData()))
        .isEqualTo(ConfigEnvelope.parseFrom(fabricPayload.getData()));
    assertThat(FixtureConfigs.check(GENESIS).invalidReason(ours.toByteString())).isEmpty();
  }

  @Test
  void fabricsConfigEnvelopesPassTheBackupCheckOnlyOnTheConfigBeforeThem() {
    ByteString block6 = FixtureConfigs.configEnvelope(6).toByteString();
    ByteString block7 = FixtureConfigs.configEnvelope(7).toByteString();

    assertThat(FixtureConfigs.check(GENESIS).invalidReason(block6)).isEmpty();
    assertThat(FixtureConfigs.check(AFTER_BATCH_SIZE).invalidReason(block7)).isEmpty();
    assertThat(FixtureConfigs.check(GENESIS).invalidReason(block7))
        .hasValueSatisfying(
            reason -> assertThat(reason).contains("does not produce the config it carries"));
    assertThat(FixtureConfigs.check(AFTER_BATCH_SIZE).invalidReason(block6))
        .hasValue(
            "error applying config update to existing channel 'fixture': error authorizing"
                + " update: error validating DeltaSet: attempt to set key [Value] "
                + " /Channel/Orderer/BatchSize to version 1, but key is at version 1");
  }
}
