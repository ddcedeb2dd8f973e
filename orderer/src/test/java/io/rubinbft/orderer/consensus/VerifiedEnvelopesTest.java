package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.block.EnvelopeValidator;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.validation.ChannelRules;
import java.nio.file.Path;
import java.time.Clock;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A backup verifies a proposed envelope only if it did not already verify those bytes itself. */
class VerifiedEnvelopesTest {

  private static final Sha256 SHA256 = new Sha256(FabricTestCluster.PROVIDER);

  @TempDir Path wals;

  @Test
  void anEnvelopeVerifiedAtIngressIsNotVerifiedAgainButItsTwinIs() throws Exception {
    ChannelRules rules = rules(wals);
    VerifiedEnvelopes verified = new VerifiedEnvelopes(SHA256, 16);
    EnvelopeValidator check = BroadcastEnvelopeChecks.of(rules, Clock.systemUTC(), verified);
    Envelope envelope = client().transaction("fixture", new byte[100]).envelope();
    Envelope forged = withFlippedSignature(envelope);

    assertThat(check.invalidReason(forged.toByteString())).isPresent();
    verified.add(envelope.toByteArray());
    assertThat(check.invalidReason(envelope.toByteString())).isEmpty();
    assertThat(check.invalidReason(forged.toByteString()))
        .as("same payload, other signature bytes: verified in full")
        .isPresent();
  }

  @Test
  void forgetsTheOldestBeyondItsCapacity() {
    VerifiedEnvelopes verified = new VerifiedEnvelopes(SHA256, 3);
    for (int i = 0; i < 5; i++) {
      verified.add(new byte[] {(byte) i});
    }
    assertThat(verified.contains(new byte[] {0})).isFalse();
    assertThat(verified.contains(new byte[] {1})).isFalse();
    assertThat(verified.contains(new byte[] {2})).isTrue();
    assertThat(verified.contains(new byte[] {4})).isTrue();
  }

  private static Envelope withFlippedSignature(Envelope envelope) {
    byte[] signature = envelope.getSignature().toByteArray();
    signature[signature.length - 1] ^= 1;
    return envelope.toBuilder().setSignature(ByteString.copyFrom(signature)).build();
  }

  private static EnvelopeFactory client() {
    return new EnvelopeFactory(FabricTestCluster.user1(), Clock.systemUTC());
  }

  private static ChannelRules rules(Path wals) throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 1 << 20)) {
      return ChannelRules.fromConfig(
          cluster.channel.config(),
          FabricTestCluster.PROVIDER,
          cluster.channel.batchLimits().absoluteMaxBytes(),
          64);
    }
  }
}
