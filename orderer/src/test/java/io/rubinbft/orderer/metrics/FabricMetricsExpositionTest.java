package io.rubinbft.orderer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.BindableService;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ServerInterceptors;
import io.grpc.stub.StreamObserver;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.orderer.client.GrpcClients;
import io.rubinbft.orderer.cluster.ClusterStats;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.consensus.ForwardCounts;
import io.rubinbft.orderer.consensus.ReplicaProgressForTests;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.testing.Keepalives;
import io.rubinbft.testdata.FabricTestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.Test;

/**
 * Every metric orderer/docs/METRICS.md says has Fabric's name ("Fabric: yes") is served as Fabric
 * v3.1.5's orderer serves it: same family name, same TYPE, same label names, and for counters the
 * same sample name (no {@code _total}). Compared with the exposition captured from a real Fabric
 * orderer ({@code testdata/fabric/metrics/orderer-metrics.txt}, provenance in its README).
 */
class FabricMetricsExpositionTest {

  private static final Path METRICS_DOC =
      FabricTestData.repositoryRoot(Path.of("").toAbsolutePath())
          .resolve("orderer/docs/METRICS.md");

  /** A table row of orderer/docs/METRICS.md: `name` | type | labels | Fabric | meaning. */
  private static final Pattern ROW =
      Pattern.compile("^\\| `([a-zA-Z_:][a-zA-Z0-9_:]*)` \\| (\\w+) \\|[^|]*\\| (yes|no) \\|");

  @Test
  void everyMetricClaimedAsFabricsMatchesFabricsExposition() throws Exception {
    Map<String, PrometheusText.Family> fabric =
        PrometheusText.parse(Files.readString(FabricTestData.path("metrics/orderer-metrics.txt")));
    Map<String, PrometheusText.Family> ours = PrometheusText.parse(exerciseEveryFabricMetric());

    Map<String, String> claimed = claimedFabricMetrics();
    assertThat(claimed)
        .containsKeys(
            "broadcast_processed_count",
            "consensus_BFT_cluster_size",
            "consensus_BFT_committed_block_number",
            "consensus_BFT_is_leader",
            "consensus_BFT_leader_id",
            "consensus_smartbft_view_number",
            "grpc_server_stream_requests_completed",
            "ledger_blockstorage_commit_time",
            "fabric_version");
    List<String> mismatches = new ArrayList<>();
    claimed.forEach(
        (name, documentedType) -> {
          PrometheusText.Family theirs = fabric.get(name);
          PrometheusText.Family mine = ours.get(name);
          if (theirs == null) {
            mismatches.add(name + ": not in Fabric's exposition");
          } else if (mine == null) {
            mismatches.add(name + ": not in ours");
          } else {
            compare(name, documentedType, theirs, mine).ifPresent(mismatches::add);
          }
        });
    assertThat(mismatches).isEmpty();
  }

  @Test
  void fabricCountersCarryNoTotalSuffixOursDo() throws Exception {
    Map<String, PrometheusText.Family> ours = PrometheusText.parse(exerciseEveryFabricMetric());
    assertThat(ours.get("broadcast_processed_count").samples())
        .extracting(PrometheusText.Sample::name)
        .containsOnly("broadcast_processed_count");
    assertThat(ours.get("consensus_smartbft_view_changes_total").samples())
        .extracting(PrometheusText.Sample::name)
        .containsOnly("consensus_smartbft_view_changes_total");
  }

  private static Optional<String> compare(
      String name,
      String documentedType,
      PrometheusText.Family theirs,
      PrometheusText.Family mine) {
    if (!theirs.type().equals(mine.type()) || !theirs.type().equals(documentedType)) {
      return Optional.of(
          name
              + ": TYPE "
              + mine.type()
              + " (documented "
              + documentedType
              + "), Fabric's "
              + theirs.type());
    }
    if (!labelNames(theirs).equals(labelNames(mine))) {
      return Optional.of(
          name + ": labels " + labelNames(mine) + ", Fabric's " + labelNames(theirs));
    }
    if (!sampleNames(theirs).equals(sampleNames(mine))) {
      return Optional.of(
          name + ": samples " + sampleNames(mine) + ", Fabric's " + sampleNames(theirs));
    }
    if (theirs.samples().isEmpty() || mine.samples().isEmpty()) {
      return Optional.of(name + ": no sample to compare labels with");
    }
    return Optional.empty();
  }

  private static Set<String> labelNames(PrometheusText.Family family) {
    Set<String> names = new TreeSet<>();
    family.samples().forEach(s -> names.addAll(s.labels().keySet()));
    names.remove("le");
    return names;
  }

  private static Set<String> sampleNames(PrometheusText.Family family) {
    Set<String> names = new TreeSet<>();
    family.samples().forEach(s -> names.add(s.name()));
    return names;
  }

  /** Name -> type of every orderer/docs/METRICS.md row marked "yes" in its Fabric column. */
  private static Map<String, String> claimedFabricMetrics() throws IOException {
    Map<String, String> claimed = new TreeMap<>();
    for (String line : Files.readAllLines(METRICS_DOC, StandardCharsets.UTF_8)) {
      Matcher row = ROW.matcher(line);
      if (row.find() && row.group(3).equals("yes")) {
        claimed.put(row.group(1), row.group(2));
      }
    }
    return claimed;
  }

  /**
   * A metrics registry as a serving node has it: one channel with a running replica, Broadcast,
   * Deliver and ledger commits recorded, and real gRPC calls through the interceptor.
   */
  private static String exerciseEveryFabricMetric() throws Exception {
    ChannelView channel =
        new ChannelView(
            "fixture",
            new ReplicaStatus(0, true, 0, 2, 0, 128, 0, Map.of(), false),
            1,
            true,
            ReplicaProgressForTests.fresh(),
            0,
            Map.of(),
            0,
            4,
            true,
            new ForwardCounts());
    ParticipationView joined =
        new ParticipationView(
            "fixture",
            ParticipationView.Relation.CONSENTER,
            ParticipationView.Status.ACTIVE,
            3,
            Optional.empty());
    OrdererMetrics metrics =
        OrdererMetrics.register(
            () -> List.of(joined),
            () -> List.of(channel),
            () -> new ClusterStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            Optional::empty,
            "test");
    metrics.broadcast().rejected(Status.BAD_REQUEST, 1_000);
    metrics
        .broadcast()
        .enqueued("fixture", HeaderType.ENDORSER_TRANSACTION_VALUE, Status.SUCCESS, 1_000, 2_000);
    metrics.deliver().streamOpened();
    metrics.deliver().requestReceived("fixture");
    metrics.deliver().blockSent("fixture");
    metrics.deliver().requestCompleted("fixture", true);
    metrics.deliver().streamClosed();
    metrics.decisions("fixture").decided(2, OptionalLong.of(1_000_000));
    metrics.ledgerCommits().committed("fixture", 3_000_000);
    broadcastThroughTheInterceptor(metrics.grpc());
    return MetricsScrape.text(metrics);
  }

  /** Two envelopes on one Broadcast stream of a real gRPC server wrapped by the interceptor. */
  private static void broadcastThroughTheInterceptor(GrpcServerMetrics grpc) throws Exception {
    BindableService echo =
        new AtomicBroadcastGrpc.AtomicBroadcastImplBase() {
          @Override
          public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> out) {
            return new StreamObserver<>() {
              @Override
              public void onNext(Envelope envelope) {
                out.onNext(BroadcastResponse.newBuilder().setStatus(Status.SUCCESS).build());
              }

              @Override
              public void onError(Throwable t) {}

              @Override
              public void onCompleted() {
                out.onCompleted();
              }
            };
          }
        };
    BindableService counted = () -> ServerInterceptors.intercept(echo, grpc.interceptor());
    try (GrpcListener server =
        GrpcListener.start(
            ListenerSettings.of(
                new HostPort("127.0.0.1", 0),
                TlsSettings.plaintext(),
                1 << 20,
                Keepalives.FABRIC_DEFAULTS),
            List.of(counted))) {
      ManagedChannel channel =
          GrpcClients.open(
              new HostPort("127.0.0.1", server.address().getPort()),
              InsecureChannelCredentials.create());
      try {
        Iterator<BroadcastResponse> answers = broadcastTwice(channel);
        assertThat(answers.next().getStatus()).isEqualTo(Status.SUCCESS);
        assertThat(answers.next().getStatus()).isEqualTo(Status.SUCCESS);
        assertThat(answers.hasNext()).isFalse();
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static Iterator<BroadcastResponse> broadcastTwice(ManagedChannel channel)
      throws InterruptedException {
    List<BroadcastResponse> answers = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(channel)
            .broadcast(
                new StreamObserver<>() {
                  @Override
                  public void onNext(BroadcastResponse response) {
                    answers.add(response);
                  }

                  @Override
                  public void onError(Throwable t) {
                    done.countDown();
                  }

                  @Override
                  public void onCompleted() {
                    done.countDown();
                  }
                });
    requests.onNext(Envelope.getDefaultInstance());
    requests.onNext(Envelope.getDefaultInstance());
    requests.onCompleted();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    return answers.iterator();
  }
}
