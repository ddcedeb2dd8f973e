package io.rubinbft.orderer.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.deliver.DeliverBytes;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.metrics.DeliverBudgetMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through real gRPC and Netty on loopback: a reader that asks for a large block and never reads it
 * (its client grants the server a 64 KiB window and requests no message) holds the node's whole
 * Deliver budget, as the default plan's budget of one block lets it. Another reader's blocks wait
 * for it at most its turn: 2 s plus the block's bytes at 1 MiB/s, about 4 s for the 2 MB blocks
 * here (under 10 s asserted, for a loaded machine). Before the turns (a block gave way 10 s plus
 * its bytes at 256 KiB/s after it was sent, about 18 s here), this test failed. The budget's gauges
 * and give-way count are read back from a Prometheus registry as an operator's scrape reads them.
 */
class StalledDeliverReaderTest {

  private static final int BLOCKS = 3;
  private static final int ENVELOPE_DATA_BYTES = 2_000_000;
  private static final Duration BOUND = Duration.ofSeconds(10);

  @Test
  void aReaderThatNeverReadsDelaysAnotherReadersBlocksByOneTurnAtMost(@TempDir Path directory)
      throws Exception {
    List<Block> blocks = largeBlocks();
    int blockBytes =
        DeliverResponse.newBuilder().setBlock(blocks.getFirst()).build().getSerializedSize();
    DeliverBytes budget = new DeliverBytes(blockBytes);
    double blockBytesRead = blockBytes;
    PrometheusRegistry registry = new PrometheusRegistry();
    DeliverBudgetMetrics.register(registry, budget);

    try (ServiceNode node = ServiceNode.startWithDeliverBytes(directory, budget)) {
      blocks.forEach(block -> node.ledger.append(block.toByteArray(), Durability.UNSYNCED));
      long first = ServiceNode.FIXTURE_HEIGHT;
      long last = first + BLOCKS - 1;

      ManagedChannel stalledChannel =
          NettyChannelBuilder.forAddress("localhost", node.address().getPort())
              .usePlaintext()
              .flowControlWindow(65_535)
              .maxInboundMessageSize(Integer.MAX_VALUE)
              .build();
      try {
        NeverReads stalled = new NeverReads();
        io.grpc.stub.StreamObserver<Envelope> stalledRequests =
            org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc.newStub(stalledChannel)
                .deliver(stalled);
        stalledRequests.onNext(DeliverClient.seek(first, last, SeekBehavior.BLOCK_UNTIL_READY));
        awaitGauge(registry, "orderer_deliver_bytes_in_flight", blockBytesRead);
        assertThat(gauge(registry, "orderer_deliver_bytes_budget")).isEqualTo(blockBytesRead);

        long start = System.nanoTime();
        CompletableFuture<DeliverClient.Answer> honest =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return new DeliverClient(node.stub())
                        .request(DeliverClient.seek(first, last, SeekBehavior.BLOCK_UNTIL_READY));
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                });
        awaitGauge(registry, "orderer_deliver_blocks_waiting", 1.0);

        DeliverClient.Answer answer = honest.get(30, TimeUnit.SECONDS);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(answer.status()).isEqualTo(org.hyperledger.fabric.protos.common.Status.SUCCESS);
        assertThat(answer.blocks())
            .containsExactlyElementsOf(blocks.stream().map(Block::toByteString).toList());
        assertThat(took).as("the honest reader's blocks behind a stalled one").isLessThan(BOUND);

        assertThat(counter(registry, "orderer_deliver_streams_given_way", "too_slow")).isEqualTo(1);
        assertThat(gauge(registry, "orderer_deliver_blocks_waiting")).isZero();
        assertThat(gauge(registry, "orderer_deliver_bytes_in_flight")).isZero();
        // The stalled stream is gone on the node too (reset: its block no longer sits in Netty's
        // buffers), though its reader never read; a status would have waited behind the block.
        // (The honest reader's stream stays open for its next request.)
        awaitCounter(node.metrics, "deliver_streams_closed", 1.0);
      } finally {
        stalledChannel.shutdownNow();
        stalledChannel.awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static List<Block> largeBlocks() {
    EnvelopeFactory user1 = ServiceNode.user1Envelopes();
    List<Block> blocks = new ArrayList<>();
    Block previous = Fixtures.block(ServiceNode.FIXTURE_HEIGHT - 1);
    for (int i = 0; i < BLOCKS; i++) {
      Envelope envelope = user1.transaction("fixture", new byte[ENVELOPE_DATA_BYTES]).envelope();
      previous = NextBlock.after(previous, envelope);
      blocks.add(previous);
    }
    return blocks;
  }

  private static void awaitGauge(PrometheusRegistry registry, String name, double value)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (gauge(registry, name) != value) {
      assertThat(System.nanoTime()).as("%s reads %s", name, value).isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static void awaitCounter(PrometheusRegistry registry, String name, double value)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (((CounterSnapshot) snapshot(registry, name)).getDataPoints().getFirst().getValue()
        != value) {
      assertThat(System.nanoTime()).as("%s counts %s", name, value).isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private static double gauge(PrometheusRegistry registry, String name) {
    GaugeSnapshot gauge = (GaugeSnapshot) snapshot(registry, name);
    return gauge.getDataPoints().getFirst().getValue();
  }

  private static double counter(PrometheusRegistry registry, String name, String reason) {
    CounterSnapshot counter = (CounterSnapshot) snapshot(registry, name);
    return counter.getDataPoints().stream()
        .filter(point -> reason.equals(labelOf(point)))
        .findFirst()
        .orElseThrow()
        .getValue();
  }

  private static String labelOf(DataPointSnapshot point) {
    return point.getLabels().get("reason");
  }

  private static MetricSnapshot snapshot(PrometheusRegistry registry, String name) {
    return registry.scrape().stream()
        .filter(metric -> metric.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name));
  }

  /** Asks for blocks and takes none: the server's window to it stays at 64 KiB, used up. */
  private static final class NeverReads
      implements ClientResponseObserver<Envelope, DeliverResponse> {

    @Override
    public void beforeStart(ClientCallStreamObserver<Envelope> requestStream) {
      requestStream.disableAutoRequestWithInitial(0);
    }

    @Override
    public void onNext(DeliverResponse value) {
      throw new AssertionError("a reader that requests nothing got a response");
    }

    @Override
    public void onError(Throwable t) {
      // reset by the node: what it ends with is not read either
    }

    @Override
    public void onCompleted() {}
  }
}
