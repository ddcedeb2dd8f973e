package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.PrePrepare;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Sizes and CPU cost of a typical pre-prepare: 100 Fabric-sized requests of 3.5 KB (id: an MSP id
 * and a 64-hex-digit transaction id), a 32-byte digest, a 72-byte ECDSA signature. Also prints the
 * largest-message bound of the default configuration. Times are this thread's CPU time (garbage
 * collection runs elsewhere), after one warm-up round. Run:
 *
 * <pre>./test.sh -pl bft-core -Dtest=WireBenchmark -Dbench=true</pre>
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class WireBenchmark {

  private static final int ITERATIONS = 20_000;

  @Test
  void typicalPrePrepare() {
    ReplicaConfig config = ReplicaConfig.defaults(4, 0);
    WireLimits limits = WireLimits.of(config, 4096, 512);
    MessageCodec codec = new MessageCodec(limits);
    PrePrepare prePrepare = typicalPrePrepare(new Random(1));
    byte[] bytes = codec.encode(prePrepare);
    long requestBytes = prePrepare.proposal().payload().length;
    for (Request request : prePrepare.proposal().requests()) {
      requestBytes += request.size();
    }

    long checksum = 0;
    double encodeMicros = 0;
    double decodeMicros = 0;
    for (int round = 0; round < 2; round++) {
      long start = cpuNanos();
      for (int i = 0; i < ITERATIONS; i++) {
        checksum += codec.encode(prePrepare).length;
      }
      encodeMicros = (cpuNanos() - start) / 1000.0 / ITERATIONS;
      start = cpuNanos();
      for (int i = 0; i < ITERATIONS; i++) {
        if (codec.decode(bytes) instanceof Decoded.Valid<Message>) {
          checksum++;
        }
      }
      decodeMicros = (cpuNanos() - start) / 1000.0 / ITERATIONS;
    }

    assertThat(checksum).isEqualTo(2L * ITERATIONS * (bytes.length + 1));
    System.out.printf(
        "wire bench: PrePrepare of 100 x 3.5 KB requests: %d bytes encoded, %d bytes of requests"
            + " and payload, %d bytes (%.2f%%) framing; encode %.1f us, decode %.1f us (thread CPU time, second of two rounds)%n",
        bytes.length,
        requestBytes,
        bytes.length - requestBytes,
        100.0 * (bytes.length - requestBytes) / bytes.length,
        encodeMicros,
        decodeMicros);
    System.out.printf(
        "wire bench: ReplicaConfig.defaults(4, 0), payload 4096, signature 512: maxMessageBytes %d;"
            + " 7 replicas: %d%n",
        limits.maxMessageBytes(),
        WireLimits.of(ReplicaConfig.defaults(7, 0), 4096, 512).maxMessageBytes());
  }

  /** This thread's CPU time: the machine is shared, so wall time would measure the neighbours. */
  private static long cpuNanos() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  private static PrePrepare typicalPrePrepare(Random random) {
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      byte[] txId = new byte[32];
      random.nextBytes(txId);
      byte[] envelope = new byte[3500];
      random.nextBytes(envelope);
      requests.add(new Request(new RequestId("Org1MSP", HexFormat.of().formatHex(txId)), envelope));
    }
    Proposal proposal = new Proposal(42, digest(random), requests, new byte[200]);
    return new PrePrepare(3, 42, digest(random), proposal, 3, new byte[72]);
  }

  private static Digest digest(Random random) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return new Digest(bytes);
  }
}
