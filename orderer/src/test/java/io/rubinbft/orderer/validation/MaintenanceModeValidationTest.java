package io.rubinbft.orderer.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.validation.TestEnvelopes.Signer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekNewest;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.junit.jupiter.api.Test;

/**
 * Maintenance mode at Broadcast and Deliver, as Fabric's StandardChannel and SigFilter apply it:
 * normal transactions refused with SERVICE_UNAVAILABLE and Fabric's text, config updates only from
 * /Channel/Orderer/Writers, blocks only for /Channel/Orderer/Readers.
 */
class MaintenanceModeValidationTest {

  private static final Instant NOW = Instant.parse("2026-11-21T05:23:23Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final ChannelRules NORMAL =
      new ChannelRules(GenesisChannel.msps(), GenesisChannel.policies(), 10_485_760, false);
  private static final ChannelRules MAINTENANCE =
      new ChannelRules(GenesisChannel.msps(), GenesisChannel.policies(), 10_485_760, true);

  private static Verdict broadcast(ChannelRules rules, Envelope envelope) {
    return BroadcastValidator.forClients(id -> Optional.of(rules), CLOCK)
        .validate(envelope)
        .verdict();
  }

  private static Verdict inProposal(ChannelRules rules, Envelope envelope) {
    return new BroadcastValidator(id -> Optional.of(rules), CLOCK).validate(envelope).verdict();
  }

  private static Verdict deliver(ChannelRules rules, Signer signer) {
    SeekPosition newest =
        SeekPosition.newBuilder().setNewest(SeekNewest.getDefaultInstance()).build();
    Envelope seek =
        TestEnvelopes.signed(
            TestEnvelopes.header(HeaderType.DELIVER_SEEK_INFO, "fixture", NOW),
            signer,
            SeekInfo.newBuilder().setStart(newest).setStop(newest).build().toByteString());
    return new DeliverValidator(
            id -> Optional.of(rules),
            CLOCK,
            DeliverValidator.DEFAULT_TIME_WINDOW,
            false,
            new Sha256(GenesisChannel.PROVIDER))
        .validate(seek, Optional.empty())
        .verdict();
  }

  private static Envelope envelope(HeaderType type, Signer signer) {
    return TestEnvelopes.signed(
        TestEnvelopes.header(type, "fixture", NOW), signer, ByteString.copyFromUtf8("data"));
  }

  @Test
  void aNormalTransactionIsRefusedWithFabricsServiceUnavailable() {
    for (Signer signer : new Signer[] {Signer.user1(), Signer.orderer1()}) {
      Envelope tx = envelope(HeaderType.ENDORSER_TRANSACTION, signer);

      assertThat(broadcast(NORMAL, tx)).isEqualTo(Verdict.success());
      assertThat(broadcast(MAINTENANCE, tx))
          .isEqualTo(
              new Verdict(
                  Status.SERVICE_UNAVAILABLE,
                  "normal transactions are rejected: maintenance mode"));
      // A primary's proposal carrying one is refused by every backup alike.
      assertThat(inProposal(MAINTENANCE, tx).status()).isEqualTo(Status.SERVICE_UNAVAILABLE);
    }
  }

  @Test
  void onlyOrdererWritersMaySubmitConfigUpdates() {
    Envelope byOrg1 = envelope(HeaderType.CONFIG_UPDATE, Signer.user1());
    Envelope byOrderer = envelope(HeaderType.CONFIG_UPDATE, Signer.orderer1());

    assertThat(broadcast(NORMAL, byOrg1)).isEqualTo(Verdict.success());
    Verdict refused = broadcast(MAINTENANCE, byOrg1);
    assertThat(refused.status()).isEqualTo(Status.FORBIDDEN);
    assertThat(refused.info())
        .startsWith(
            "config update for existing channel did not pass initial checks: implicit policy"
                + " evaluation failed")
        .endsWith(": permission denied");
    assertThat(broadcast(MAINTENANCE, byOrderer)).isEqualTo(Verdict.success());
  }

  @Test
  void onlyOrdererReadersMayDeliver() {
    assertThat(deliver(NORMAL, Signer.user1()).status()).isEqualTo(Status.SUCCESS);
    assertThat(deliver(MAINTENANCE, Signer.user1()).status()).isEqualTo(Status.FORBIDDEN);
    assertThat(deliver(MAINTENANCE, Signer.orderer1()).status()).isEqualTo(Status.SUCCESS);
  }
}
