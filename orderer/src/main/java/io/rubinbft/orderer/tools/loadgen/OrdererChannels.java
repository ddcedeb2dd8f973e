package io.rubinbft.orderer.tools.loadgen;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.rubinbft.orderer.client.GrpcClients;
import io.rubinbft.orderer.config.HostPort;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * gRPC connections to a set of orderers, with TLS (and mutual TLS) as a Fabric client makes them.
 */
public final class OrdererChannels implements AutoCloseable {

  /**
   * Client TLS: trusted CA file, and an optional client key pair for mutual TLS.
   *
   * @param trustedCa the orderers' TLS CA, or empty for plaintext
   */
  public record ClientTls(
      Optional<Path> trustedCa, Optional<Path> certificate, Optional<Path> key) {}

  private final List<ManagedChannel> channels;

  private OrdererChannels(List<ManagedChannel> channels) {
    this.channels = channels;
  }

  public static OrdererChannels connect(List<HostPort> orderers, ClientTls tls) throws IOException {
    ChannelCredentials credentials = credentials(tls);
    return new OrdererChannels(
        orderers.stream().map(orderer -> GrpcClients.open(orderer, credentials)).toList());
  }

  public List<ManagedChannel> channels() {
    return channels;
  }

  @Override
  public void close() {
    channels.forEach(ManagedChannel::shutdown);
    channels.forEach(GrpcClients::close);
  }

  private static ChannelCredentials credentials(ClientTls tls) throws IOException {
    if (tls.trustedCa().isEmpty()) {
      return InsecureChannelCredentials.create();
    }
    TlsChannelCredentials.Builder builder =
        TlsChannelCredentials.newBuilder().trustManager(tls.trustedCa().get().toFile());
    if (tls.certificate().isPresent() && tls.key().isPresent()) {
      builder.keyManager(tls.certificate().get().toFile(), tls.key().get().toFile());
    }
    return builder.build();
  }
}
