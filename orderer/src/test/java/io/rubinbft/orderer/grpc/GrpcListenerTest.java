package io.rubinbft.orderer.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.config.ConnectionLimits;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.crypto.Pem;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.testing.Keepalives;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gRPC listener with the fixture orderer's TLS material and mutual TLS. */
class GrpcListenerTest {

  private static final Path NODE_TLS = FabricFixtures.orderer(1).resolve("tls");
  private static final Path ADMIN_TLS =
      FabricFixtures.ordererOrg().resolve("users/Admin@example.com/tls");

  private static final Path ORG1_USER_TLS =
      FabricFixtures.root()
          .resolve("crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/tls");

  /** The TLS CAs of the channels' configs as the node would report them. */
  private final AtomicReference<List<X509Certificate>> channelCas =
      new AtomicReference<>(List.of());

  private GrpcListener listener;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    listener =
        GrpcListener.start(
            new ListenerSettings(
                new HostPort("127.0.0.1", 0),
                FabricFixtures.ordererTls(1, true, List.of(NODE_TLS.resolve("ca.crt"))),
                channelCas::get,
                1 << 20,
                Keepalives.FABRIC_DEFAULTS,
                ConnectionLimits.DEFAULTS,
                () -> GrpcListener.MAX_ORDERABLE_MESSAGE_BYTES),
            List.of(new ReportsClientCertificate()));
    listener.health().setStatus("", HealthCheckResponse.ServingStatus.SERVING);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    listener.close();
  }

  @Test
  void servesHealthOverMutualTls() throws IOException {
    channel = connect(credentials(true));
    HealthCheckResponse health =
        HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.getDefaultInstance());
    assertThat(health.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
  }

  @Test
  void handlersSeeTheClientsCertificate() throws Exception {
    channel = connect(credentials(true));
    assertThat(deliverAnswer()).isEqualTo(Status.SUCCESS);
  }

  /** One Deliver request's answer: SUCCESS when the handler saw the admin's certificate. */
  private Status deliverAnswer() throws Exception {
    CompletableFuture<DeliverResponse> response = new CompletableFuture<>();
    StreamObserver<Envelope> requests =
        AtomicBroadcastGrpc.newStub(channel)
            .deliver(
                new StreamObserver<>() {
                  @Override
                  public void onNext(DeliverResponse value) {
                    response.complete(value);
                  }

                  @Override
                  public void onError(Throwable t) {
                    response.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {}
                });
    requests.onNext(Envelope.getDefaultInstance());
    Status status = response.get(10, TimeUnit.SECONDS).getStatus();
    requests.onCompleted();
    return status;
  }

  @Test
  void withoutClientAuthenticationHandlersSeeNoCertificate() throws Exception {
    listener.close();
    listener =
        GrpcListener.start(
            new ListenerSettings(
                new HostPort("127.0.0.1", 0),
                FabricFixtures.ordererServerTls(1),
                channelCas::get,
                1 << 20,
                Keepalives.FABRIC_DEFAULTS,
                ConnectionLimits.DEFAULTS,
                () -> GrpcListener.MAX_ORDERABLE_MESSAGE_BYTES),
            List.of(new ReportsClientCertificate()));
    // The client has the admin's certificate to offer, but the listener never asks for it.
    channel = connect(credentials(true));
    assertThat(deliverAnswer()).isEqualTo(Status.FORBIDDEN);
  }

  @Test
  void aClientWithoutCertificateCannotConnect() throws IOException {
    channel = connect(credentials(false));
    assertThatThrownBy(
            () ->
                HealthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .check(HealthCheckRequest.getDefaultInstance()))
        .isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void clientsOfTheChannelsTlsCasAreTrustedAsTheChannelsChange() throws IOException {
    ChannelCredentials org1User =
        TlsChannelCredentials.newBuilder()
            .trustManager(NODE_TLS.resolve("ca.crt").toFile())
            .keyManager(
                ORG1_USER_TLS.resolve("client.crt").toFile(),
                ORG1_USER_TLS.resolve("client.key").toFile())
            .build();
    assertThat(healthCheckPasses(org1User)).as("Org1's TLS CA is in no channel yet").isFalse();

    channelCas.set(Pem.certificates(ORG1_USER_TLS.resolve("ca.crt")));
    assertThat(healthCheckPasses(org1User)).as("a config added Org1").isTrue();
    assertThat(healthCheckPasses(credentials(true))).as("orderer.yaml's CA stays").isTrue();

    channelCas.set(List.of());
    assertThat(healthCheckPasses(org1User)).as("a config removed Org1").isFalse();
  }

  /** Whether a new connection with {@code credentials} gets a health answer. */
  private boolean healthCheckPasses(ChannelCredentials credentials) {
    ManagedChannel connection = connect(credentials);
    try {
      HealthGrpc.newBlockingStub(connection)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
      return true;
    } catch (StatusRuntimeException e) {
      return false;
    } finally {
      connection.shutdownNow();
    }
  }

  private ManagedChannel connect(ChannelCredentials credentials) {
    return Grpc.newChannelBuilderForAddress("localhost", listener.address().getPort(), credentials)
        .build();
  }

  private static ChannelCredentials credentials(boolean withClientCertificate) throws IOException {
    TlsChannelCredentials.Builder builder =
        TlsChannelCredentials.newBuilder().trustManager(NODE_TLS.resolve("ca.crt").toFile());
    if (withClientCertificate) {
      builder.keyManager(
          ADMIN_TLS.resolve("client.crt").toFile(), ADMIN_TLS.resolve("client.key").toFile());
    }
    return builder.build();
  }

  /** Answers SUCCESS when the call carries the fixture admin's TLS client certificate. */
  private static final class ReportsClientCertificate
      extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {

    @Override
    public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responses) {
      boolean admin =
          ClientCertificates.current()
              .map(c -> c.equals(Pem.certificates(ADMIN_TLS.resolve("client.crt")).getFirst()))
              .orElse(false);
      return new StreamObserver<>() {
        @Override
        public void onNext(Envelope envelope) {
          responses.onNext(
              DeliverResponse.newBuilder()
                  .setStatus(admin ? Status.SUCCESS : Status.FORBIDDEN)
                  .build());
          responses.onCompleted();
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {}
      };
    }
  }
}
