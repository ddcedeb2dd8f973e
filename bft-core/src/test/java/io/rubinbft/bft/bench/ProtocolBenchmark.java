package io.rubinbft.bft.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.OperatingSystemMXBean;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ProposalSigner;
import io.rubinbft.bft.spi.ReplicaServices;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.KeyPair;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Protocol CPU cost per decided request: four replicas in one thread, messages handed over directly
 * (no network, no WAL I/O), every request submitted to every replica as Fabric clients do. Reports
 * CPU time per decided request, of the whole process (GC and JIT included) and of the protocol
 * thread alone: the cost of all four replicas together, and divided by four one replica's share.
 * Wall time is printed too but means little on a shared machine. Run:
 *
 * <pre>./test.sh -pl bft-core -Dtest=ProtocolBenchmark -Dbench=true</pre>
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
public class ProtocolBenchmark {

  private static final int REPLICAS = 4;

  private record InFlight(int from, int to, Message message) {}

  /** Entry point for profilers: {@code java -cp ... ProtocolBenchmark}. */
  @SuppressWarnings("JUnitMethodInvoked") // profilers run the test's body without JUnit
  public static void main(String[] args) {
    new ProtocolBenchmark().costPerDecidedRequest();
  }

  @Test
  void costPerDecidedRequest() {
    for (int batch : new int[] {10, 100, 500}) {
      measure("no-op crypto", batch, false, 200_000);
    }
    if (!"noop".equals(System.getProperty("bench.crypto"))) {
      for (int batch : new int[] {10, 100, 500}) {
        measure("ECDSA P-256", batch, true, 20_000);
      }
    }
  }

  private static void measure(String crypto, int batch, boolean ecdsa, int requests) {
    run(batch, ecdsa, requests / 4);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean process =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long wallStart = System.nanoTime();
    long threadStart = threads.getCurrentThreadCpuTime();
    long processStart = process.getProcessCpuTime();
    run(batch, ecdsa, requests);
    double thread = (threads.getCurrentThreadCpuTime() - threadStart) / 1000.0 / requests;
    double all = (process.getProcessCpuTime() - processStart) / 1000.0 / requests;
    double wall = (System.nanoTime() - wallStart) / 1000.0 / requests;
    System.out.printf(
        "bft-core bench: %-12s batch %3d | per request, 4 replicas together: %8.2f us process CPU"
            + " (GC, JIT included), %8.2f us protocol thread CPU | per replica: %7.2f us process"
            + " CPU | wall %7.2f us%n",
        crypto, batch, all, thread, all / REPLICAS, wall);
  }

  private static void run(int batch, boolean ecdsa, int requests) {
    ReplicaConfig template =
        new ReplicaConfig(
            REPLICAS,
            0,
            batch,
            1 << 24,
            1,
            64,
            16,
            1_000_000,
            1024,
            1_000_000,
            100,
            1_000_000,
            1024,
            1_000_000,
            Decisions.MAX_ANSWER_BYTES);
    KeyPair[] keys = ecdsa ? EcdsaCrypto.generate(REPLICAS, 7) : null;
    SimApplication application = new SimApplication();
    Replica[] replicas = new Replica[REPLICAS];
    for (int id = 0; id < REPLICAS; id++) {
      ReplicaServices services =
          ecdsa
              ? services(new EcdsaCrypto(id, keys), application)
              : services(new NoopCrypto(), application);
      replicas[id] = Replica.start(template.withSelf(id), services);
    }
    ArrayDeque<InFlight> queue = new ArrayDeque<>();
    byte[] payload = new byte[100];
    int decided = 0;
    int submitted = 0;
    while (decided < requests) {
      for (int i = 0; i < batch * 8 && submitted < requests; i++, submitted++) {
        Request request = new Request(new RequestId("bench", "tx-" + submitted), payload);
        for (int id = 0; id < REPLICAS; id++) {
          decided += dispatch(id, replicas[id].step(new Event.ClientRequest(request)), queue);
        }
      }
      while (!queue.isEmpty()) {
        InFlight next = queue.poll();
        Effects effects = replicas[next.to()].step(new Event.Received(next.from(), next.message()));
        decided += dispatch(next.to(), effects, queue);
      }
      for (int id = 0; id < REPLICAS; id++) {
        decided += dispatch(id, replicas[id].step(new Event.Tick()), queue);
      }
    }
    assertThat(decided).isEqualTo(requests);
  }

  private static <T extends Crypto & ProposalSigner> ReplicaServices services(
      T crypto, SimApplication application) {
    return new ReplicaServices(crypto, crypto, application, application);
  }

  /** Queues the messages; returns how many requests replica 0 decided in these effects. */
  private static int dispatch(int from, Effects effects, ArrayDeque<InFlight> queue) {
    enqueue(from, effects.sendNow(), queue);
    enqueue(from, effects.sendAfterPersist(), queue);
    int decided = 0;
    if (from == 0) {
      for (var decision : effects.decisions()) {
        decided += decision.proposal().requests().size();
      }
    }
    return decided;
  }

  private static void enqueue(int from, List<Outbound> outbounds, ArrayDeque<InFlight> queue) {
    for (Outbound outbound : outbounds) {
      for (int to = 0; to < REPLICAS; to++) {
        boolean addressed = outbound.to().isEmpty() ? to != from : outbound.to().getAsInt() == to;
        if (addressed) {
          queue.add(new InFlight(from, to, outbound.message()));
        }
      }
    }
  }
}
