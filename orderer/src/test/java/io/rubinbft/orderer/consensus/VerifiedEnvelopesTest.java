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
    EnvelopeValidator check = BroadcastEnvelopeChecks.of(rules, Clock.systemUTC(), verified, true);
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
    assertThat(verified.contains(bytes(0))).isFalse();
    assertThat(verified.contains(bytes(1))).isFalse();
    assertThat(verified.contains(bytes(2))).isTrue();
    assertThat(verified.contains(bytes(4))).isTrue();
  }

  @Test
  void bytesAddedAsAnArrayAreKnownAsAByteStringOfAnyShape() {
    VerifiedEnvelopes verified = new VerifiedEnvelopes(SHA256, 3);
    verified.add(new byte[] {1, 2, 3, 4});
    verified.add(ByteString.copyFrom(new byte[] {5, 6}));

    assertThat(verified.contains(bytes(1, 2).concat(bytes(3, 4)))).isTrue();
    assertThat(verified.contains(bytes(5, 6))).isTrue();
    assertThat(verified.contains(bytes(1, 2, 3))).isFalse();
  }

  private static ByteString bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return ByteString.copyFrom(bytes);
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
