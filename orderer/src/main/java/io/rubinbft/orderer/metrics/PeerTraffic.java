package io.rubinbft.orderer.metrics;

import io.rubinbft.net.ChannelStats;
import io.rubinbft.orderer.cluster.NetworkTraffic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * rdma-net's channels summed per peer and direction, so that each label set appears once even while
 * a reconnect briefly has an old and a new channel to the same peer.
 *
 * @param peer the common name of the peer's certificate (its subject, or its address before the
 *     handshake)
 * @param direction "out" for the channel this node dialed, "in" for one it accepted
 * @param channels the peer's channels in that direction
 */
record PeerTraffic(String peer, String direction, List<ChannelStats> channels) {

  /** The traffic by peer and direction, in a stable order. */
  static List<PeerTraffic> of(NetworkTraffic traffic) {
    Map<List<String>, List<ChannelStats>> byPeer = new LinkedHashMap<>();
    for (ChannelStats channel : traffic.selector().channels()) {
      String direction = traffic.dialed().contains(channel.remoteAddress()) ? "out" : "in";
      byPeer
          .computeIfAbsent(List.of(peerName(channel), direction), key -> new ArrayList<>())
          .add(channel);
    }
    return byPeer.entrySet().stream()
        .map(e -> new PeerTraffic(e.getKey().get(0), e.getKey().get(1), e.getValue()))
        .toList();
  }

  /** Sums {@code field} over this peer's channels. */
  long sum(ToLongFunction<ChannelStats> field) {
    return channels.stream().mapToLong(field).sum();
  }

  private static String peerName(ChannelStats channel) {
    if (channel.peer().isEmpty()) {
      return channel.remoteAddress().getHostString() + ":" + channel.remoteAddress().getPort();
    }
    try {
      for (Rdn rdn : new LdapName(channel.peer()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return rdn.getValue().toString();
        }
      }
    } catch (InvalidNameException e) {
      // rdma-net wrote the subject in RFC 2253 form; should it not parse, the whole subject names
      // the peer just as well.
    }
    return channel.peer();
  }
}
