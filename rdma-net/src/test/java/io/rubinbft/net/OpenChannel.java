package io.rubinbft.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A channel opened between two selectors by the test's thread: the server listens on loopback, the
 * client connects, and both are pumped until the server has accepted and the client's end is open.
 * Each side pins the other's certificate.
 *
 * @param listener the server's listener, still interested in ACCEPT (a test may connect again)
 * @param clientSide the client's end
 * @param serverSide the end the server accepted
 */
public record OpenChannel(ServerChannel listener, Channel clientSide, Channel serverSide) {

  public static OpenChannel open(
      Selector server, Identity serverIdentity, Selector client, Identity clientIdentity)
      throws IOException {
    ServerChannel listener =
        server.listen(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            PeerAuthenticator.pinned(List.of(clientIdentity.certificate())));
    listener.key().addInterest(Interest.ACCEPT);
    List<Channel> accepted = new ArrayList<>();
    Pump pump =
        new Pump(
            key -> {
              if (key.isReady(Interest.ACCEPT)) {
                key.serverChannel().accept().ifPresent(accepted::add);
              }
            },
            server,
            client);
    Channel clientSide =
        client.connect(
            listener.localAddress(),
            PeerAuthenticator.pinned(List.of(serverIdentity.certificate())));
    pump.until("accepted", () -> !accepted.isEmpty());
    pump.until("client open", () -> clientSide.state() == ChannelState.OPEN);
    return new OpenChannel(listener, clientSide, accepted.getFirst());
  }
}
