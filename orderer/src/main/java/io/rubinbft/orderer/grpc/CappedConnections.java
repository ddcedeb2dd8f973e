package io.rubinbft.orderer.grpc;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.rubinbft.orderer.config.ConnectionLimits;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Puts {@link ConnectionCaps} into grpc-java's Netty server: its server channel checks every
 * connection as it is accepted (a refused one is closed before gRPC sees it, so it costs no
 * transport), and as a transport filter it hears when a connection finished its handshake (gRPC
 * calls the transport ready then: after TLS and HTTP/2's preface).
 */
final class CappedConnections extends ServerTransportFilter
    implements ChannelFactory<ServerChannel> {

  /** Accepts taken per turn of the accepting loop while they are refused. */
  private static final int REFUSALS_PER_READ = 16;

  private final ConnectionCaps<Channel> caps;
  // Open connections by remote address: how a transport filter's attributes name a connection.
  private final Map<SocketAddress, Channel> byRemote = new ConcurrentHashMap<>();

  CappedConnections(ConnectionLimits limits, Clock clock) {
    this.caps = new ConnectionCaps<>(limits, clock);
  }

  ConnectionCaps<Channel> caps() {
    return caps;
  }

  @Override
  public ServerChannel newChannel() {
    return new CappedServerChannel();
  }

  @Override
  public Attributes transportReady(Attributes transportAttrs) {
    SocketAddress remote = transportAttrs.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    Channel channel = remote == null ? null : byRemote.get(remote);
    if (channel != null) {
      caps.handshaken(channel);
    }
    return transportAttrs;
  }

  /** A server socket channel that admits each accepted connection through the caps. */
  private final class CappedServerChannel extends NioServerSocketChannel {

    @Override
    protected int doReadMessages(List<Object> accepted) throws Exception {
      for (int refusals = 0; refusals < REFUSALS_PER_READ; refusals++) {
        int read = super.doReadMessages(accepted);
        if (read <= 0) {
          return read;
        }
        Channel child = (Channel) accepted.getLast();
        if (admit(child)) {
          return read;
        }
        accepted.removeLast();
        child.unsafe().closeForcibly();
      }
      return 0; // More next turn: the selector reports the pending accepts again.
    }

    private boolean admit(Channel child) {
      if (!(child.remoteAddress() instanceof InetSocketAddress remote)) {
        return false; // Reset as it was accepted.
      }
      ConnectionCaps.Admission<Channel> admission = caps.admit(child, remote.getAddress());
      admission.evicted().ifPresent(this::closeNow);
      if (admission.refused().isPresent()) {
        return false;
      }
      byRemote.put(remote, child);
      // addListener returns the close future itself, which the listener already handles.
      var _ =
          child
              .closeFuture()
              .addListener(
                  closed -> {
                    byRemote.remove(remote, child);
                    caps.closed(child);
                  });
      return true;
    }

    /**
     * Closes {@code connection} at once, under its handlers (through its pipeline, HTTP/2's handler
     * would wait for a graceful end). Run after this turn of accepts: one accepted in it gets its
     * event loop only as the turn ends.
     */
    private void closeNow(Channel connection) {
      eventLoop()
          .execute(
              () ->
                  connection
                      .eventLoop()
                      .execute(() -> connection.unsafe().close(connection.unsafe().voidPromise())));
    }
  }
}
