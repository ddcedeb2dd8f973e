package io.rubinbft.orderer.tools.loadgen;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the CPU time one transaction costs at the least under the design issue 6 requires, item by
 * item: the client signs each envelope and sends it to all 4 orderers over gRPC with TLS, waiting
 * for a quorum of SUCCESS; each orderer verifies its signature once; blocks of 100 are signed by
 * each orderer and delivered to the client. Consensus, ledger and the request pool are left out:
 * what remains of the budget is theirs. Each round runs in a fresh JVM per JIT setting (the
 * launcher's: C1 only, as bin/rubin-orderer starts nodes and the load generator; then the default
 * tiered JIT), the server side in a process of its own ({@link InstantAnswerServer}) so that client
 * and server CPU are counted apart. CPU time, not wall time: thread CPU for the signature work,
 * process CPU (all threads, GC and JIT included) for the transport. A main, not a test: no timed
 * assertions.
 *
 * <p>From the repo root: {@code mvn -q -pl orderer -am test-compile dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt && cd orderer && java -cp
 * target/classes:target/test-classes:$(cat target/cp.txt)
 * io.rubinbft.orderer.tools.loadgen.TransactionFloorBenchmark [rounds]}
 */
public final class TransactionFloorBenchmark {

  /** The load generator's default payload: about 3.5 KB envelopes. */
  static final int PAYLOAD_BYTES = 2_800;

  /** Transactions per block (BatchSize.MaxMessageCount of the benchmark's channel). */
  static final int BLOCK_TRANSACTIONS = 100;

  /** What deploy/image/dist/rubin-orderer gives every process it starts. */
  static final List<String> LAUNCHER =
      List.of(
          "--enable-native-access=ALL-UNNAMED",
          "--add-exports",
          "java.base/jdk.internal.misc=ALL-UNNAMED",
          "-Xms64m",
          "-XX:+UseSerialGC",
          "-XX:+UseCompactObjectHeaders",
          "-XX:MaxDirectMemorySize=96m",
          "-XX:MaxMetaspaceSize=96m",
          "-XX:ReservedCodeCacheSize=48m");

  /** What it adds for a node ({@code start}). */
  static final List<String> NODE =
      List.of(
          "-XX:NewRatio=5",
          "-XX:+ExitOnOutOfMemoryError",
          "-XX:TrimNativeHeapInterval=5000",
          "-Xmx96m");

  static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private TransactionFloorBenchmark() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    for (int round = 1; round <= rounds; round++) {
      for (boolean c1Only : new boolean[] {true, false}) {
        System.out.printf(
            "%n== round %d of %d: %s ==%n",
            round, rounds, c1Only ? "C1 only (as the launcher runs them)" : "default tiered JIT");
        List<String> jit = c1Only ? List.of(C1_ONLY) : List.of();
        List<String> server = new ArrayList<>(LAUNCHER);
        server.addAll(NODE);
        server.addAll(jit);
        List<String> client = new ArrayList<>(LAUNCHER);
        client.addAll(jit);
        int status =
            JavaProcess.builder(client, TransactionFloorRun.class, server)
                .inheritIO()
                .start()
                .waitFor();
        if (status != 0) {
          throw new IllegalStateException("round " + round + " failed with exit status " + status);
        }
      }
    }
  }
}
