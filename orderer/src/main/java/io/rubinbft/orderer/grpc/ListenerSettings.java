package io.rubinbft.orderer.grpc;

import io.rubinbft.orderer.config.ConnectionLimits;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.KeepaliveSettings;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.tls.ClientTrust;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What a {@link GrpcListener} is started with.
 *
 * @param address where it listens
 * @param channelClientCas with client authentication on, the CAs trusted besides {@code
 *     tls.clientRootCas()}: the TLS CAs of the served channels' current configs ({@link
 *     ClientTrust})
 * @param maxInboundBytes the largest message a client may send (General.MaxRecvMsgSize), at most
 *     {@link GrpcListener#MAX_ORDERABLE_MESSAGE_BYTES}
 * @param keepalive General.Keepalive, as Fabric's orderer applies it to its gRPC server
 * @param connections General.Connections
 * @param largestAbsoluteMaxBytes the largest {@code BatchSize.AbsoluteMaxBytes} of the channels
 *     served now (0 while none is): no message larger than it plus {@link
 *     GrpcListener#MESSAGE_MARGIN_BYTES} is taken
 */
public record ListenerSettings(
    HostPort address,
    TlsSettings tls,
    Supplier<List<X509Certificate>> channelClientCas,
    long maxInboundBytes,
    KeepaliveSettings keepalive,
    ConnectionLimits connections,
    LongSupplier largestAbsoluteMaxBytes) {

  /**
   * A listener trusting no channel's CAs, with the default connection caps, taking messages up to
   * {@code maxInboundBytes} whatever the channels' AbsoluteMaxBytes.
   */
  public static ListenerSettings of(
      HostPort address, TlsSettings tls, long maxInboundBytes, KeepaliveSettings keepalive) {
    return new ListenerSettings(
        address,
        tls,
        List::of,
        maxInboundBytes,
        keepalive,
        ConnectionLimits.DEFAULTS,
        () -> GrpcListener.MAX_ORDERABLE_MESSAGE_BYTES);
  }

  /** The largest message any channel could take: General.MaxRecvMsgSize, within the transport's. */
  int staticMaxInboundBytes() {
    return (int) Math.min(GrpcListener.MAX_ORDERABLE_MESSAGE_BYTES, maxInboundBytes);
  }
}
