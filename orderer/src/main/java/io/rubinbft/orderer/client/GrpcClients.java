package io.rubinbft.orderer.client;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.rubinbft.orderer.config.HostPort;
import java.util.concurrent.TimeUnit;

/** gRPC channels to orderers, as Fabric clients open them. */
public final class GrpcClients {

  /** Fabric's default maximum message size: blocks can be large. */
  public static final int MAX_MESSAGE_BYTES = 100 << 20;

  private GrpcClients() {}

  /** A channel to {@code orderer} (connected lazily, on the first call). */
  public static ManagedChannel open(HostPort orderer, ChannelCredentials credentials) {
    return NettyChannelBuilder.forAddress(orderer.host(), orderer.port(), credentials)
        .maxInboundMessageSize(MAX_MESSAGE_BYTES)
        .build();
  }

  /** Shuts {@code channel} down, waiting up to 5 s for its calls to end before cutting them. */
  public static void close(ManagedChannel channel) {
    channel.shutdown();
    try {
      if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
        channel.shutdownNow();
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
