package io.rubinbft.orderer.tools.loadgen;

import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.List;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * One round of {@link TransactionFloorBenchmark} in a JVM started with the JIT setting under test:
 * measures every item of the per-transaction floor, then prints the table and the sum. Arguments:
 * the JVM flags for the server process.
 */
public final class TransactionFloorRun {

  private static final String CHANNEL = "fixture";
  private static final int ORDERERS = 4;
  private static final int QUORUM = 3;
  private static final int POOL = 1_000;
  private static final long WARMUP_TRANSACTIONS = 50_000;
  private static final long MEASURED_TRANSACTIONS = 50_000;
  private static final long WARMUP_BLOCKS = 1_000;
  private static final long MEASURED_BLOCKS = 2_000;

  /** 2 cores' worth of CPU microseconds per second. */
  private static final double CORES_MICROS = 2e6;

  /** The target: 5,000 tx/s on 2 cores. */
  private static final double BUDGET_MICROS = CORES_MICROS / 5_000;

  private TransactionFloorRun() {}

  // TransportCosts.close() may throw InterruptedException, which main passes on (javac's "try").
  @SuppressWarnings("try")
  public static void main(String[] args) throws Exception {
    String loadBefore = JavaProcess.loadAverages();
    CryptoProvider provider = CryptoProvider.preferNative();
    SigningIdentity client = BenchEnvelopes.client(provider);
    EnvelopeFactory factory = new EnvelopeFactory(client, Clock.systemUTC());
    List<Envelope> envelopes = BenchEnvelopes.transactions(factory, CHANNEL, POOL);
    int envelopeBytes = envelopes.getFirst().getSerializedSize();

    // A node's work first: nodes do not put the native provider first; the load generator does.
    CryptoCosts crypto = new CryptoCosts(provider, client, envelopes);
    double verify = crypto.verifyMicros();
    double validate = crypto.validateMicros(CHANNEL);
    double blockSign = crypto.blockSignMicros();
    provider.installFirst();
    double bareSign = crypto.signPayloadMicros();
    double sign =
        crypto.buildAndSignMicros(factory, CHANNEL, TransactionFloorBenchmark.PAYLOAD_BYTES);

    TransportCosts.Cost broadcast;
    TransportCosts.Cost deliver;
    try (TransportCosts transport = TransportCosts.start(List.of(args), ORDERERS, envelopeBytes)) {
      transport.broadcast(envelopes, WARMUP_TRANSACTIONS, QUORUM);
      broadcast = transport.broadcast(envelopes, MEASURED_TRANSACTIONS, QUORUM);
      transport.deliver(factory, CHANNEL, WARMUP_BLOCKS);
      deliver = transport.deliver(factory, CHANNEL, MEASURED_BLOCKS);
    }
    System.out.printf(
        "JVM flags: %s%nenvelope %,d B, provider %s, load average before %s, after %s%n",
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(flag -> flag.startsWith("-X"))
            .toList(),
        envelopeBytes,
        provider.name(),
        loadBefore,
        JavaProcess.loadAverages());
    System.out.printf(
        "bare ECDSA P-256 over an envelope's payload: sign %.1f us, verify %.1f us (thread CPU)%n",
        bareSign, verify);
    new FloorReport(
            sign, verify, validate, blockSign, broadcast, deliver, ORDERERS, QUORUM, BUDGET_MICROS)
        .print(System.out, CORES_MICROS);
  }
}
