package io.rubinbft.orderer.consensus;

import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.channel.ConsenterMapping;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Who replica {@code i} of a channel is on the network: the i-th consenter by id, reached at the
 * address its consenter-mapping entry names, and recognized by the TLS certificates it lists.
 */
public final class ReplicaDirectory {

  private final List<Consenter> consenters;
  private final IntFunction<InetSocketAddress> addresses;
  // Written by the replica thread, read by health checks too.
  private final AtomicReferenceArray<InetSocketAddress> resolved;

  /** Replicas at the addresses {@code addresses} gives (tests use ephemeral ports). */
  public ReplicaDirectory(ConsenterMapping mapping, IntFunction<InetSocketAddress> addresses) {
    this.consenters = mapping.consenters();
    this.addresses = addresses;
    this.resolved = new AtomicReferenceArray<>(consenters.size());
  }

  /** Replicas at their consenter-mapping host and port. */
  public static ReplicaDirectory fromMapping(ConsenterMapping mapping) {
    List<Consenter> consenters = mapping.consenters();
    return new ReplicaDirectory(
        mapping,
        i ->
            InetSocketAddress.createUnresolved(consenters.get(i).host(), consenters.get(i).port()));
  }

  public int size() {
    return consenters.size();
  }

  /**
   * Replica {@code replica}'s address, resolved once: this is on every message's path, so no name
   * lookup per send. A name that does not resolve yet (a peer's DNS record not published) is tried
   * again on the next call.
   */
  public InetSocketAddress address(int replica) {
    InetSocketAddress known = resolved.get(replica);
    if (known != null && !known.isUnresolved()) {
      return known;
    }
    InetSocketAddress address = addresses.apply(replica);
    if (address.isUnresolved()) {
      address = new InetSocketAddress(address.getHostString(), address.getPort());
    }
    resolved.set(replica, address);
    return address;
  }

  /**
   * How many replicas other than {@code self} are at one of {@code connected}: only addresses
   * already resolved count (a replica never sent to has no connection), so this does no lookups.
   */
  public int countConnected(int self, Set<InetSocketAddress> connected) {
    int count = 0;
    for (int i = 0; i < resolved.length(); i++) {
      InetSocketAddress address = resolved.get(i);
      if (i != self && address != null && connected.contains(address)) {
        count++;
      }
    }
    return count;
  }

  /** The replica that authenticated with {@code certificate}, if it is one of this channel's. */
  public OptionalInt replicaOf(X509Certificate certificate) {
    for (int i = 0; i < consenters.size(); i++) {
      Consenter consenter = consenters.get(i);
      if (consenter.clientTlsCertificate().equals(certificate)
          || consenter.serverTlsCertificate().equals(certificate)) {
        return OptionalInt.of(i);
      }
    }
    return OptionalInt.empty();
  }
}
