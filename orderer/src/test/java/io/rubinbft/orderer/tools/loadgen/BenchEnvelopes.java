package io.rubinbft.orderer.tools.loadgen;

import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * The client and the envelopes the transport benchmarks send: the fixture's User1 of Org1, and a
 * pool of its signed transactions of {@link TransactionFloorBenchmark#PAYLOAD_BYTES} random bytes
 * (seeded, so every run sends the same).
 */
final class BenchEnvelopes {

  private BenchEnvelopes() {}

  /** User1@org1.example.com from the Fabric fixtures, signing with {@code provider}. */
  static SigningIdentity client(CryptoProvider provider) {
    return SigningIdentity.fromMspDirectory(
        FabricFixtures.root()
            .resolve("crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com")
            .resolve("msp"),
        "Org1MSP",
        provider);
  }

  /** {@code count} transactions on {@code channel}, each over its own random payload. */
  static List<Envelope> transactions(EnvelopeFactory factory, String channel, int count) {
    Random random = new Random(1);
    List<Envelope> envelopes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] payload = new byte[TransactionFloorBenchmark.PAYLOAD_BYTES];
      random.nextBytes(payload);
      envelopes.add(factory.transaction(channel, payload).envelope());
    }
    return envelopes;
  }
}
