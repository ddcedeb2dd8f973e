package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.MspConfigException;
import io.rubinbft.orderer.policy.PolicyConfigException;
import java.time.Clock;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * Prints the cost of validating one Broadcast envelope end to end (decode, channel lookup, size,
 * cached creator, one ECDSA verify, /Channel/Writers) on Fabric's recorded transaction, per
 * provider. A main, not a test. Run like {@code io.rubinbft.orderer.crypto.VerifyBenchmark}, with
 * this class name.
 */
public final class BroadcastValidationBenchmark {

  private static final int WARMUP = 5_000;
  private static final int MEASURED = 20_000;

  private BroadcastValidationBenchmark() {}

  public static void main(String[] args) throws MspConfigException, PolicyConfigException {
    Envelope envelope = Fixtures.envelope("tx-valid");
    for (CryptoProvider provider :
        new CryptoProvider[] {CryptoProvider.preferNative(), CryptoProvider.jdk()}) {
      ChannelRules rules =
          ChannelRules.fromConfig(Fixtures.genesisConfig(), provider, 10_485_760, 4096);
      BroadcastValidator validator =
          new BroadcastValidator(
              id -> id.equals("fixture") ? Optional.of(rules) : Optional.empty(),
              Clock.systemUTC());
      for (int i = 0; i < WARMUP; i++) {
        check(validator.validate(envelope));
      }
      long start = System.nanoTime();
      for (int i = 0; i < MEASURED; i++) {
        check(validator.validate(envelope));
      }
      double micros = (System.nanoTime() - start) / 1e3 / MEASURED;
      System.out.printf(
          "%-30s %6.1f us per envelope (%d B payload), %,.0f envelopes/s on one core%n",
          provider, micros, envelope.getPayload().size(), 1e6 / micros);
    }
  }

  private static void check(BroadcastResult result) {
    if (!result.verdict().isSuccess()) {
      throw new IllegalStateException("benchmark envelope rejected: " + result.verdict());
    }
  }
}
