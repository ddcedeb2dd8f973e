package io.rubinbft.orderer.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.GenesisChannel;
import io.rubinbft.orderer.policy.PolicyConfigException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Envelope;
import org.junit.jupiter.api.Test;

/**
 * Seeded byte flips of envelopes Fabric accepted: whatever still parses as an Envelope is answered
 * with a Verdict, never an exception, and never SUCCESS (every byte is covered by the signature or
 * is the signature).
 */
class MutatedEnvelopeTest {

  private static final long SEED = 0x5eed_0003L;
  private static final int ROUNDS = 300;
  private static final Instant NOW = Instant.parse("2026-11-21T05:23:23Z");

  private static final Map<String, ChannelRules> CHANNELS = Map.of("fixture", rules());

  private static ChannelRules rules() {
    try {
      return ChannelRules.fromConfig(
          Fixtures.genesisConfig(), GenesisChannel.PROVIDER, 10_485_760, 64);
    } catch (MspConfigException | PolicyConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Envelope> mutate(byte[] original, Random random) {
    byte[] bytes = original.clone();
    int flips = 1 + random.nextInt(3);
    for (int i = 0; i < flips; i++) {
      bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
    }
    try {
      return Optional.of(Envelope.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }

  @Test
  void broadcastRejectsEveryMutation() {
    BroadcastValidator validator =
        new BroadcastValidator(
            id -> Optional.ofNullable(CHANNELS.get(id)), Clock.fixed(NOW, ZoneOffset.UTC));
    byte[] original = Fixtures.bytes("envelopes/tx-valid.envelope");
    Random random = new Random(SEED);
    System.out.println("seed " + SEED);
    int parsed = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Optional<Envelope> envelope = mutate(original, random);
      if (envelope.isPresent()) {
        parsed++;
        assertThat(validator.validate(envelope.get()).verdict().isSuccess())
            .as("round %d", round)
            .isFalse();
      }
    }
    assertThat(parsed).as("mutations that still parse").isGreaterThan(ROUNDS / 2);
  }

  @Test
  void deliverRejectsEveryMutation() {
    DeliverValidator validator =
        new DeliverValidator(
            id -> Optional.ofNullable(CHANNELS.get(id)),
            Clock.fixed(NOW, ZoneOffset.UTC),
            DeliverValidator.DEFAULT_TIME_WINDOW,
            false,
            new Sha256(GenesisChannel.PROVIDER));
    byte[] original = Fixtures.bytes("envelopes/deliver-seek-fixturetool.envelope");
    Random random = new Random(SEED + 1);
    System.out.println("seed " + (SEED + 1));
    for (int round = 0; round < ROUNDS; round++) {
      Optional<Envelope> envelope = mutate(original, random);
      if (envelope.isPresent()) {
        assertThat(validator.validate(envelope.get(), Optional.empty()).verdict().isSuccess())
            .as("round %d", round)
            .isFalse();
      }
    }
  }
}
