package io.rubinbft.orderer.channel;

import io.rubinbft.bft.Quorums;
import java.security.cert.X509Certificate;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The channel's consenters, i.e. its PBFT replica set, ordered by consenter id. A replica's index
 * (0..n-1, what PBFT's "primary = view mod n" counts with) is its position in that order; the
 * consenter id is what Fabric writes into block signatures.
 */
public final class ConsenterMapping {

  private final List<Consenter> consenters;

  /**
   * @throws IllegalArgumentException when empty or when two consenters share an id
   */
  public ConsenterMapping(List<Consenter> consenters) {
    if (consenters.isEmpty()) {
      throw new IllegalArgumentException("the consenter mapping is empty");
    }
    this.consenters = consenters.stream().sorted(Comparator.comparingLong(Consenter::id)).toList();
    for (int i = 1; i < this.consenters.size(); i++) {
      if (this.consenters.get(i).id() == this.consenters.get(i - 1).id()) {
        throw new IllegalArgumentException(
            "consenter id " + this.consenters.get(i).id() + " appears more than once");
      }
    }
  }

  /** Every consenter, ascending by id. */
  public List<Consenter> consenters() {
    return consenters;
  }

  public int size() {
    return consenters.size();
  }

  /** n, f and the quorum {@code ceil((n+f+1)/2)} that certifies a block. */
  public Quorums quorums() {
    return new Quorums(consenters.size());
  }

  public Optional<Consenter> byId(long id) {
    return consenters.stream().filter(c -> c.id() == id).findFirst();
  }

  /** The replica index (position by ascending id) of the consenter with this id. */
  public Optional<Integer> replicaIndex(long id) {
    for (int i = 0; i < consenters.size(); i++) {
      if (consenters.get(i).id() == id) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /**
   * The consenter whose identity or TLS certificate is {@code certificate}, or whose identity
   * certificate is of {@code certificate}'s key (an entry renewed with the same key, while the node
   * still runs its previous certificate), if any.
   */
  public Optional<Consenter> withCertificate(X509Certificate certificate) {
    return consenters.stream().filter(c -> c.hasCertificate(certificate)).findFirst();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ConsenterMapping mapping && mapping.consenters.equals(consenters);
  }

  @Override
  public int hashCode() {
    return consenters.hashCode();
  }

  @Override
  public String toString() {
    return "ConsenterMapping[" + describe() + "]";
  }

  /** For messages: "1 (CN=...), 2 (CN=...)". */
  String describe() {
    return consenters.stream().map(Consenter::describe).collect(Collectors.joining(", "));
  }
}
