package io.rubinbft.orderer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.BindableService;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ServerInterceptors;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.orderer.client.GrpcClients;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.grpc.GrpcListener;
import io.rubinbft.orderer.grpc.ListenerSettings;
import io.rubinbft.orderer.testing.Keepalives;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.junit.jupiter.api.Test;

/**
 * The gRPC server metrics over real calls: each call counted under its own method and status code
 * (the data points are looked up once per method and code, not per call, so a call must never be
 * counted under another's).
 */
class GrpcServerMetricsTest {

  /** Answers an envelope without payload SUCCESS; fails the call on one with a payload. */
  private static final BindableService SERVICE =
      new AtomicBroadcastGrpc.AtomicBroadcastImplBase() {
        @Override
        public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> out) {
          return new StreamObserver<>() {
            @Override
            public void onNext(Envelope envelope) {
              if (envelope.getPayload().isEmpty()) {
                out.onNext(BroadcastResponse.newBuilder().setStatus(Status.SUCCESS).build());
              } else {
                out.onError(io.grpc.Status.INVALID_ARGUMENT.asRuntimeException());
              }
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {
              out.onCompleted();
            }
          };
        }

        @Override
        public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> out) {
          return new StreamObserver<>() {
            @Override
            public void onNext(Envelope envelope) {}

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {
              out.onCompleted();
            }
          };
        }
      };

  private static final Envelope EMPTY = Envelope.getDefaultInstance();
  private static final Envelope REFUSED =
      Envelope.newBuilder().setPayload(ByteString.copyFromUtf8("refused")).build();

  @Test
  void countsEachCallUnderItsMethodAndStatusCode() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    GrpcServerMetrics metrics = new GrpcServerMetrics(registry);
    BindableService counted = () -> ServerInterceptors.intercept(SERVICE, metrics.interceptor());
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
        assertThat(call(channel, true, EMPTY, EMPTY)).isEmpty();
        assertThat(call(channel, true, REFUSED)).contains(io.grpc.Status.Code.INVALID_ARGUMENT);
        assertThat(call(channel, true, EMPTY)).isEmpty();
        assertThat(call(channel, false, EMPTY)).isEmpty();
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }

    Map<String, PrometheusText.Family> scraped = scrape(registry);
    Map<String, String> broadcast =
        Map.of("service", "orderer_AtomicBroadcast", "method", "Broadcast");
    Map<String, String> deliver = Map.of("service", "orderer_AtomicBroadcast", "method", "Deliver");
    assertThat(value(scraped, "grpc_server_stream_requests_received", broadcast)).isEqualTo(3);
    assertThat(value(scraped, "grpc_server_stream_requests_received", deliver)).isEqualTo(1);
    assertThat(value(scraped, "grpc_server_stream_messages_received", broadcast)).isEqualTo(4);
    assertThat(value(scraped, "grpc_server_stream_messages_sent", broadcast)).isEqualTo(3);
    assertThat(value(scraped, "grpc_server_stream_messages_received", deliver)).isEqualTo(1);
    assertThat(value(scraped, "grpc_server_stream_messages_sent", deliver)).isEqualTo(0);
    assertThat(value(scraped, "grpc_server_stream_requests_completed", with(broadcast, "OK")))
        .isEqualTo(2);
    assertThat(
            value(
                scraped,
                "grpc_server_stream_requests_completed",
                with(broadcast, "InvalidArgument")))
        .isEqualTo(1);
    assertThat(value(scraped, "grpc_server_stream_requests_completed", with(deliver, "OK")))
        .isEqualTo(1);
    assertThat(
            scraped
                .get("grpc_server_stream_request_duration")
                .value("grpc_server_stream_request_duration_count", with(broadcast, "OK")))
        .contains(2.0);
    assertThat(
            scraped
                .get("grpc_server_stream_request_duration")
                .value(
                    "grpc_server_stream_request_duration_count",
                    with(broadcast, "InvalidArgument")))
        .contains(1.0);
  }

  /**
   * One Broadcast (or Deliver) call sending {@code envelopes}, then its end; the status code it
   * failed with, empty when it ended OK.
   */
  private static Optional<io.grpc.Status.Code> call(
      ManagedChannel channel, boolean broadcast, Envelope... envelopes)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<io.grpc.Status.Code> failed = new AtomicReference<>();
    StreamObserver<Object> answers =
        new StreamObserver<>() {
          @Override
          public void onNext(Object answer) {}

          @Override
          public void onError(Throwable t) {
            failed.set(io.grpc.Status.fromThrowable(t).getCode());
            done.countDown();
          }

          @Override
          public void onCompleted() {
            done.countDown();
          }
        };
    var stub = AtomicBroadcastGrpc.newStub(channel);
    StreamObserver<Envelope> requests =
        broadcast ? stub.broadcast(relay(answers)) : stub.deliver(relay(answers));
    for (Envelope envelope : envelopes) {
      requests.onNext(envelope);
    }
    requests.onCompleted();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    return Optional.ofNullable(failed.get());
  }

  private static <T> StreamObserver<T> relay(StreamObserver<Object> to) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        to.onNext(value);
      }

      @Override
      public void onError(Throwable t) {
        to.onError(t);
      }

      @Override
      public void onCompleted() {
        to.onCompleted();
      }
    };
  }

  private static Map<String, String> with(Map<String, String> labels, String code) {
    return Map.of("service", labels.get("service"), "method", labels.get("method"), "code", code);
  }

  private static double value(
      Map<String, PrometheusText.Family> scraped, String family, Map<String, String> labels) {
    return scraped.get(family).value(family, labels).orElse(0.0);
  }

  private static Map<String, PrometheusText.Family> scrape(PrometheusRegistry registry)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FabricExposition.write(out, registry.scrape());
    return PrometheusText.parse(out.toString(StandardCharsets.UTF_8));
  }
}
