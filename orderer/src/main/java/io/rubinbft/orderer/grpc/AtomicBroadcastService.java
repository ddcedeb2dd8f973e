package io.rubinbft.orderer.grpc;

import com.google.protobuf.ByteString;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.broadcast.BroadcastSession;
import io.rubinbft.orderer.broadcast.BroadcastThrottle;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.deliver.DeliverBytes;
import io.rubinbft.orderer.deliver.DeliverSession;
import io.rubinbft.orderer.deliver.SeekHandler;
import io.rubinbft.orderer.metrics.BroadcastMetrics;
import io.rubinbft.orderer.metrics.DeliverMetrics;
import io.rubinbft.orderer.service.Channels;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.ChannelRules;
import io.rubinbft.orderer.validation.DeliverValidator;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;

/**
 * Fabric's {@code orderer.AtomicBroadcast}: Broadcast and Deliver over the node's channels. Serve
 * it with {@link GrpcListener}, which runs calls on virtual threads and makes the TLS client
 * certificate available for Deliver's {@code tls_cert_hash} check.
 */
public final class AtomicBroadcastService extends AtomicBroadcastGrpc.AtomicBroadcastImplBase {

  private final Channels channels;
  private final BroadcastValidator broadcastValidator;
  private final SeekHandler seeks;
  private final BroadcastMetrics broadcastMetrics;
  private final DeliverMetrics deliverMetrics;
  private final BroadcastThrottle throttle;

  /**
   * @param clock the time for certificate expiry and the Deliver timestamp window
   * @param timeWindow how far a Deliver request's timestamp may be from {@code clock} (Fabric's
   *     General.Authentication.TimeWindow, {@link DeliverValidator#DEFAULT_TIME_WINDOW})
   * @param mutualTls whether the listener requires client certificates; Deliver then checks {@code
   *     tls_cert_hash}
   * @param expirationChecks whether expired client certificates are refused (Fabric's {@code
   *     General.Authentication.NoExpirationChecks} inverted)
   * @param throttle Fabric's Broadcast throttling (by the connection's client certificate)
   * @param deliverBytes the direct memory the blocks being sent to all Deliver readers may hold
   */
  public AtomicBroadcastService(
      Channels channels,
      Clock clock,
      Duration timeWindow,
      boolean mutualTls,
      boolean expirationChecks,
      BroadcastThrottle throttle,
      Sha256 sha256,
      BroadcastMetrics broadcastMetrics,
      DeliverMetrics deliverMetrics,
      DeliverBytes deliverBytes) {
    this.channels = channels;
    this.broadcastMetrics = broadcastMetrics;
    this.deliverMetrics = deliverMetrics;
    this.throttle = throttle;
    Function<String, Optional<ChannelRules>> rules =
        id -> channels.channel(id).map(ServedChannel::rules);
    this.broadcastValidator =
        BroadcastValidator.forClients(rules, clock).withExpirationChecks(expirationChecks);
    this.seeks =
        new SeekHandler(
            channels,
            new DeliverValidator(rules, clock, timeWindow, mutualTls, sha256)
                .withExpirationChecks(expirationChecks),
            clock,
            deliverMetrics,
            deliverBytes);
  }

  @Override
  public StreamObserver<Envelope> broadcast(StreamObserver<BroadcastResponse> responseObserver) {
    return BroadcastSession.open(
        responseObserver,
        broadcastValidator,
        channels,
        broadcastMetrics,
        throttle.turnOf(ClientCertificates.current()));
  }

  @Override
  public StreamObserver<Envelope> deliver(StreamObserver<DeliverResponse> responseObserver) {
    deliverMetrics.streamOpened();
    // The call's context is cancelled when the call ends, however it ends.
    Context.current().addListener(context -> deliverMetrics.streamClosed(), Runnable::run);
    return DeliverSession.open(
        responseObserver, seeks, ClientCertificates.current().map(AtomicBroadcastService::der));
  }

  private static ByteString der(X509Certificate certificate) {
    try {
      return ByteString.copyFrom(certificate.getEncoded());
    } catch (CertificateEncodingException e) {
      throw new IllegalStateException("the TLS handshake accepted an unencodable certificate", e);
    }
  }
}
