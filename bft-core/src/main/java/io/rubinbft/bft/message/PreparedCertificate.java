package io.rubinbft.bft.message;

import java.util.List;

/**
 * Proof that a proposal was prepared in a view: the primary's signed pre-prepare plus signed
 * prepares from distinct backups, a quorum of votes together.
 */
public record PreparedCertificate(PrePrepare prePrepare, List<Prepare> prepares) {

  public PreparedCertificate {
    prepares = List.copyOf(prepares);
  }

  public long view() {
    return prePrepare.view();
  }

  public long sequence() {
    return prePrepare.sequence();
  }
}
