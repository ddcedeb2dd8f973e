package io.rubinbft.orderer.tools.loadgen;

import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * Prints the server CPU time a transaction costs in the gRPC transport alone under Fabric's gateway
 * pattern: each envelope goes to 4 orderers, each on a fresh Broadcast stream with TLS, as {@link
 * SubmitMode#GATEWAY} submits. The 4 listeners are the orderer's own {@code GrpcListener}s in one
 * process of their own ({@link InstantAnswerServer}, started with the launcher's node flags, C1
 * only), answering SUCCESS without validation, consensus or ledger, so the figure is the per-stream
 * server path (TLS records, HTTP/2, gRPC call set-up, executor hops, interceptors) and nothing
 * else. Process CPU time, not wall time, so it compares builds on a loaded machine; run the builds
 * alternately. A main, not a test: no timed assertions.
 *
 * <p>From the repo root: {@code mvn -q -o -pl orderer -am test-compile dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt && cd orderer && java -cp
 * target/classes:target/test-classes:$(cat target/cp.txt)
 * io.rubinbft.orderer.tools.loadgen.GatewayStreamCost [rounds] [transactions per round]}
 */
public final class GatewayStreamCost {

  private static final String CHANNEL = "mychannel";
  private static final int ORDERERS = 4;
  private static final int QUORUM = 3;
  private static final int POOL = 256;

  private GatewayStreamCost() {}

  // TransportCosts.close() may throw InterruptedException, which main passes on (javac's "try").
  @SuppressWarnings("try")
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    long transactions = args.length > 1 ? Long.parseLong(args[1]) : 2_000;
    CryptoProvider provider = CryptoProvider.preferNative();
    provider.installFirst();
    SigningIdentity client = BenchEnvelopes.client(provider);
    EnvelopeFactory factory = new EnvelopeFactory(client, Clock.systemUTC());
    List<Envelope> envelopes = BenchEnvelopes.transactions(factory, CHANNEL, POOL);
    List<String> server = new ArrayList<>(TransactionFloorBenchmark.LAUNCHER);
    server.addAll(TransactionFloorBenchmark.NODE);
    server.add(TransactionFloorBenchmark.C1_ONLY);
    try (TransportCosts transport =
        TransportCosts.start(server, ORDERERS, envelopes.getFirst().getSerializedSize())) {
      System.out.printf(
          "gateway pattern, %d orderers, quorum %d, %d tx per round, envelope %,d B%n",
          ORDERERS, QUORUM, transactions, envelopes.getFirst().getSerializedSize());
      for (int round = 0; round <= rounds; round++) {
        String load = JavaProcess.loadAverages();
        TransportCosts.Cost cost =
            transport.broadcast(envelopes, transactions, QUORUM, SubmitMode.GATEWAY);
        System.out.printf(
            "%s: server %.1f us per tx (%.1f per stream), client %.1f us per tx, %.0f tx/s,"
                + " load average %s%n",
            round == 0 ? "warm-up" : "round " + round,
            cost.serverMicros(),
            cost.serverMicros() / ORDERERS,
            cost.clientMicros(),
            cost.perSecond(),
            load);
      }
    }
  }
}
