package io.rubinbft.orderer.service;

import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * Prints Broadcast ingress throughput over loopback gRPC (plain text): pre-signed 3.5 KB envelopes
 * pipelined on 1 and 4 streams, each validated (ECDSA verify, /Channel/Writers) and handed to a
 * recording pool. A main, not a test: no timed assertions. From the repo root: {@code mvn -q -pl
 * orderer -am test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt && cd orderer
 * && java -cp target/classes:target/test-classes:$(cat target/cp.txt)
 * --enable-native-access=ALL-UNNAMED io.rubinbft.orderer.service.BroadcastBenchmark}
 */
public final class BroadcastBenchmark {

  private static final int ENVELOPE_DATA_BYTES = 3_500;
  private static final int ENVELOPES = 20_000;

  private BroadcastBenchmark() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    EnvelopeFactory user1 = ServiceNode.user1Envelopes();
    Random random = new Random(1);
    for (int streams : new int[] {1, 4, 1, 4}) {
      List<Envelope> envelopes = new ArrayList<>();
      for (int i = 0; i < ENVELOPES; i++) {
        byte[] data = new byte[ENVELOPE_DATA_BYTES];
        random.nextBytes(data);
        envelopes.add(user1.transaction("fixture", data).envelope());
      }
      Path directory = Files.createTempDirectory("rubin-broadcast-bench");
      try (ServiceNode node = ServiceNode.start(directory)) {
        long nanos = send(node, envelopes, streams);
        System.out.printf(
            "Broadcast %d streams: %,d envelopes of %d B in %.2f s = %,.0f tx/s%n",
            streams, ENVELOPES, ENVELOPE_DATA_BYTES, nanos / 1e9, ENVELOPES / (nanos / 1e9));
      } finally {
        deleteRecursively(directory);
      }
    }
  }

  private static long send(ServiceNode node, List<Envelope> envelopes, int streams)
      throws InterruptedException {
    List<Streams<BroadcastResponse>> answers = new ArrayList<>();
    long start = System.nanoTime();
    for (int s = 0; s < streams; s++) {
      Streams<BroadcastResponse> answer = new Streams<>();
      StreamObserver<Envelope> requests = node.stub().broadcast(answer);
      for (int i = s; i < envelopes.size(); i += streams) {
        requests.onNext(envelopes.get(i));
      }
      requests.onCompleted();
      answers.add(answer);
    }
    for (int s = 0; s < streams; s++) {
      for (int i = s; i < envelopes.size(); i += streams) {
        BroadcastResponse response = answers.get(s).next();
        if (response.getStatus() != Status.SUCCESS) {
          throw new IllegalStateException("envelope " + i + " got " + response);
        }
      }
    }
    return System.nanoTime() - start;
  }

  private static void deleteRecursively(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
