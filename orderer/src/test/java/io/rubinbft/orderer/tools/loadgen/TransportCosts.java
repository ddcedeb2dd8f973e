package io.rubinbft.orderer.tools.loadgen;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;

/**
 * CPU time of gRPC with TLS alone, client and server each in its own process: Broadcast to every
 * orderer with the load generator's own code (32 submitters, each waiting for a quorum of SUCCESS
 * before its next envelope) and Deliver of whole blocks, against {@link InstantAnswerServer}.
 */
// close() waits for what it started to end; a test interrupted there should fail on the
// InterruptedException, so close() declares it rather than swallowing it (javac's "try" lint).
@SuppressWarnings("try")
final class TransportCosts implements AutoCloseable {

  /** CPU per unit of work, in microseconds, and the wall-clock rate the run reached. */
  record Cost(double clientMicros, double serverMicros, double perSecond) {}

  private static final int SUBMITTERS = 32;
  private static final long TIMEOUT_MILLIS = 60_000;

  private final Process server;
  private final OrdererChannels orderers;

  private TransportCosts(Process server, OrdererChannels orderers) {
    this.server = server;
    this.orderers = orderers;
  }

  /**
   * Starts the server process with {@code serverJvmFlags} and connects to its {@code count}
   * listeners with TLS, trusting the fixture orderers' TLS CA as the load generator is told to.
   */
  static TransportCosts start(List<String> serverJvmFlags, int count, int blockEntryBytes)
      throws IOException {
    Process server =
        JavaProcess.builder(
                serverJvmFlags,
                InstantAnswerServer.class,
                List.of(String.valueOf(count), String.valueOf(blockEntryBytes)))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String ports =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    if (ports == null) {
      server.destroy();
      throw new IllegalStateException("the answering server ended before listening");
    }
    List<HostPort> endpoints =
        Arrays.stream(ports.split(","))
            .map(port -> new HostPort("127.0.0.1", Integer.parseInt(port)))
            .toList();
    OrdererChannels.ClientTls tls =
        new OrdererChannels.ClientTls(
            Optional.of(FabricFixtures.orderer(1).resolve("tls/ca.crt")),
            Optional.empty(),
            Optional.empty());
    return new TransportCosts(server, OrdererChannels.connect(endpoints, tls));
  }

  /**
   * Submits {@code transactions} envelopes, cycling through {@code envelopes}, each to every
   * orderer on long-lived pipelined streams; CPU per transaction (all orderers' copies together).
   */
  Cost broadcast(List<Envelope> envelopes, long transactions, int quorum)
      throws InterruptedException {
    return broadcast(envelopes, transactions, quorum, SubmitMode.PIPELINED);
  }

  /**
   * Submits as {@link #broadcast(List, long, int)} does, each envelope to every orderer the way
   * {@code mode} says (a fresh stream per envelope and orderer for {@link SubmitMode#GATEWAY}).
   */
  Cost broadcast(List<Envelope> envelopes, long transactions, int quorum, SubmitMode mode)
      throws InterruptedException {
    AtomicLong next = new AtomicLong();
    return measure(
        transactions,
        () -> {
          List<Future<?>> submitters = new ArrayList<>();
          try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < SUBMITTERS; i++) {
              submitters.add(
                  threads.submit(() -> submitLoop(envelopes, next, transactions, quorum, mode)));
            }
            for (Future<?> submitter : submitters) {
              submitter.get();
            }
          } catch (ExecutionException e) {
            throw new IllegalStateException("a submitter failed", e.getCause());
          }
        });
  }

  /** Delivers {@code blocks} whole blocks over one Deliver stream; CPU per block. */
  Cost deliver(EnvelopeFactory client, String channel, long blocks) throws InterruptedException {
    Envelope seek = client.seek(channel, SeekInfos.range(0, blocks - 1), ByteString.EMPTY);
    AtomicLong received = new AtomicLong();
    return measure(
        blocks,
        () -> {
          DeliverStream stream =
              DeliverStream.open(
                  orderers.channels().getFirst(),
                  seek,
                  (block, at) -> received.addAndGet(block.getData().getDataCount()));
          try {
            Status status = stream.finished().get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            if (status != Status.SUCCESS) {
              throw new IllegalStateException("Deliver ended with " + status);
            }
          } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Deliver failed", e);
          }
        });
  }

  private interface Work {
    void run() throws InterruptedException;
  }

  private Cost measure(long units, Work work) throws InterruptedException {
    long clientStart = JavaProcess.ownCpuNanos();
    long serverStart = JavaProcess.cpuNanos(server);
    long wallStart = System.nanoTime();
    work.run();
    long wall = System.nanoTime() - wallStart;
    // the answers after each quorum (the fourth orderer's) are still arriving
    TimeUnit.MILLISECONDS.sleep(100);
    double clientMicros = (JavaProcess.ownCpuNanos() - clientStart) / 1e3 / units;
    double serverMicros = (JavaProcess.cpuNanos(server) - serverStart) / 1e3 / units;
    return new Cost(clientMicros, serverMicros, units / (wall / 1e9));
  }

  private Void submitLoop(
      List<Envelope> envelopes, AtomicLong next, long total, int quorum, SubmitMode mode)
      throws InterruptedException {
    Submitter submitter =
        switch (mode) {
          case GATEWAY -> new GatewaySubmitter(orderers.channels(), quorum, TIMEOUT_MILLIS);
          case PIPELINED ->
              new QuorumSubmitter(
                  orderers.channels().stream().map(BroadcastStream::new).toList(),
                  quorum,
                  TIMEOUT_MILLIS);
        };
    try {
      for (long k = next.getAndIncrement(); k < total; k = next.getAndIncrement()) {
        QuorumSubmitter.Outcome outcome =
            submitter.submit(envelopes.get((int) (k % envelopes.size())));
        if (!outcome.accepted()) {
          throw new IllegalStateException("envelope " + k + " refused: " + outcome.refusals());
        }
      }
    } finally {
      submitter.close();
    }
    return null;
  }

  @Override
  public void close() throws InterruptedException {
    orderers.close();
    try {
      server.getOutputStream().close();
    } catch (IOException e) {
      server.destroy();
    }
    if (!server.waitFor(10, TimeUnit.SECONDS)) {
      server.destroy();
    }
  }
}
