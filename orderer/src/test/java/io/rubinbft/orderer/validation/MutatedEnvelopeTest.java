package io.rubinbft.orderer.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.crypto.Fixtures;
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

  private static Optional<Envelope> mutate(byte[] original, Random random) {
    byte[] bytes = original.clone();
    int flips = 1 + random.nextInt(3);
    for (int i = 0; i < flips; i++) {
      bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
    }
    return FixtureValidators.parse(bytes);
  }

  @Test
  void broadcastRejectsEveryMutation() {
    BroadcastValidator validator = FixtureValidators.broadcast();
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
    DeliverValidator validator = FixtureValidators.deliver();
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
