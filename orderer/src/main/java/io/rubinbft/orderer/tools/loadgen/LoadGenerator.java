package io.rubinbft.orderer.tools.loadgen;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.rubinbft.orderer.client.BlockStream;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Drives a load run against a running ordering service: submitters send signed transactions to
 * every orderer as the spec's {@link SubmitMode} says (by default as Fabric's gateway does) and
 * wait for the quorum's decision; one Deliver stream follows the chain from the height the run
 * started at (moving to another orderer when its orderer fails) and checks what comes back.
 */
public final class LoadGenerator {

  /**
   * How long the run's first questions (connecting, the height) wait for one orderer: one that is
   * up answers at once, and one that is stopped (its TCP connection accepted by the kernel, no TLS
   * handshake, no answer) must not hold the run up for the whole {@link LoadSpec#timeout}.
   */
  private static final Duration FIRST_ANSWER = Duration.ofSeconds(10);

  /**
   * How long the orderer read from may bring no new block while accepted transactions are still
   * undelivered before reading moves to the next one (a stopped orderer never ends its stream).
   */
  private static final Duration SILENT_ORDERER = Duration.ofSeconds(5);

  private final LoadSpec spec;
  private final EnvelopeFactory envelopes;
  private final List<ManagedChannel> orderers;
  private final ByteString tlsCertHash;
  private final DeliveryTracker tracker;
  private final AtomicLong accepted = new AtomicLong();

  /** Guards the refusals, the answer times and their count over Fabric's timeout. */
  private final Map<String, Integer> refusals = new TreeMap<>();

  private final Map<String, Map<String, Integer>> refusalsByOrderer = new TreeMap<>();
  private final Histogram answerMicros = new Histogram(3);
  private long answersOverBroadcastTimeout;

  /**
   * @param orderers one gRPC channel per orderer; Deliver reads from the first that answers and
   *     fails over to the next
   * @param tlsCertHash SHA-256 of this client's TLS certificate under mutual TLS, else empty
   * @param signatureCheck why a block's consenter signatures do not verify, or empty
   */
  public LoadGenerator(
      LoadSpec spec,
      EnvelopeFactory envelopes,
      List<ManagedChannel> orderers,
      ByteString tlsCertHash,
      Function<Block, Optional<String>> signatureCheck) {
    this.spec = spec;
    this.envelopes = envelopes;
    this.orderers = List.copyOf(orderers);
    this.tlsCertHash = tlsCertHash;
    this.tracker = new DeliveryTracker(signatureCheck);
  }

  /** Runs the load and returns what happened; blocks until every delivery or the timeout. */
  public LoadReport run() throws InterruptedException {
    ConnectionWarmup.connectAll(orderers, firstAnswerLimit());
    long startHeight = currentHeight();
    FailoverDeliver deliveries =
        new FailoverDeliver(orderers, this::seekFrom, tracker::onBlock, startHeight);
    deliveries.start();
    long start = System.nanoTime();
    List<Thread> submitters = new ArrayList<>();
    AtomicLong remaining = new AtomicLong(spec.transactions());
    for (int i = 0; i < spec.streams(); i++) {
      int index = i;
      submitters.add(Thread.ofVirtual().start(() -> submitLoop(index, remaining, start)));
    }
    for (Thread submitter : submitters) {
      submitter.join();
    }
    awaitDeliveries(deliveries);
    deliveries.close();
    DeliveryStats stats = tracker.stats();
    double elapsed = (Math.max(stats.lastDeliveryNanos(), start) - start) / 1e9;
    synchronized (refusals) {
      return new LoadReport(
          spec.mode(),
          spec.transactions(),
          accepted.get(),
          Map.copyOf(refusals),
          copyOf(refusalsByOrderer),
          answerMicros.copy(),
          answersOverBroadcastTimeout,
          stats,
          deliveries.failovers(),
          elapsed);
    }
  }

  private void submitLoop(int index, AtomicLong remaining, long start) {
    Submitter submitter =
        switch (spec.mode()) {
          case GATEWAY ->
              new GatewaySubmitter(
                  orderers,
                  spec.quorum(),
                  spec.timeout().toMillis(),
                  spec.broadcastTimeout().toMillis());
          case PIPELINED ->
              new QuorumSubmitter(
                  orderers.stream().map(BroadcastStream::new).toList(),
                  spec.quorum(),
                  spec.timeout().toMillis());
        };
    SplittableRandom random = new SplittableRandom(index);
    byte[] payload = new byte[spec.payloadBytes()];
    try {
      for (long k = 0; remaining.getAndDecrement() > 0; k++) {
        long sendAt = pace(start, index, k);
        random.nextBytes(payload);
        EnvelopeFactory.SignedEnvelope signed = envelopes.transaction(spec.channel(), payload);
        tracker.submitted(signed.txId(), sendAt);
        QuorumSubmitter.Outcome outcome = submitter.submit(signed.envelope());
        if (outcome.accepted()) {
          accepted.incrementAndGet();
          tracker.accepted(signed.txId());
        }
        record(outcome);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      submitter.close();
    }
  }

  private void record(QuorumSubmitter.Outcome outcome) {
    synchronized (refusals) {
      outcome.refusals().forEach((reason, n) -> refusals.merge(reason, n, Integer::sum));
      outcome
          .refusalsByOrderer()
          .forEach(
              (orderer, reasons) ->
                  reasons.forEach(
                      (reason, n) ->
                          refusalsByOrderer
                              .computeIfAbsent(orderer, o -> new TreeMap<>())
                              .merge(reason, n, Integer::sum)));
      answerMicros.recordValue(TimeUnit.NANOSECONDS.toMicros(outcome.answerNanos()));
      if (outcome.answerNanos() > LoadReport.FABRIC_BROADCAST_TIMEOUT.toNanos()) {
        answersOverBroadcastTimeout++;
      }
    }
  }

  private static Map<String, Map<String, Integer>> copyOf(
      Map<String, Map<String, Integer>> byOrderer) {
    Map<String, Map<String, Integer>> copy = new TreeMap<>();
    byOrderer.forEach((orderer, reasons) -> copy.put(orderer, Map.copyOf(reasons)));
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Under a fixed rate, sleeps until this submitter's k-th slot and returns that intended time, so
   * latency counts from when the transaction should have gone out (no coordinated omission).
   */
  private long pace(long start, int index, long k) throws InterruptedException {
    if (spec.ratePerSecond().isEmpty()) {
      return System.nanoTime();
    }
    double interval = 1e9 / spec.ratePerSecond().getAsDouble();
    long intended = start + (long) ((k * spec.streams() + index) * interval);
    long wait = intended - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
    return intended;
  }

  private void awaitDeliveries(FailoverDeliver deliveries) throws InterruptedException {
    long deadline = System.nanoTime() + spec.timeout().toNanos();
    while (tracker.undelivered() > 0 && System.nanoTime() < deadline) {
      deliveries.moveOnIfSilentFor(SILENT_ORDERER);
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  /** The channel's height as the first orderer that answers tells it. */
  private long currentHeight() throws InterruptedException {
    IllegalStateException failure = null;
    for (ManagedChannel orderer : orderers) {
      try {
        List<Block> newestBlock =
            BlockStream.readAll(
                orderer,
                envelopes.seek(spec.channel(), SeekInfos.newest(), tlsCertHash),
                1,
                firstAnswerLimit(),
                "the newest block of channel '" + spec.channel() + "'");
        return newestBlock.getLast().getHeader().getNumber() + 1;
      } catch (IllegalStateException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    throw failure;
  }

  private Duration firstAnswerLimit() {
    return spec.timeout().compareTo(FIRST_ANSWER) < 0 ? spec.timeout() : FIRST_ANSWER;
  }

  private org.hyperledger.fabric.protos.common.Envelope seekFrom(long height) {
    return envelopes.seek(spec.channel(), SeekInfos.from(height), tlsCertHash);
  }
}
