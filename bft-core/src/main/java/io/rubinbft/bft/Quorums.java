package io.rubinbft.bft;

/**
 * Quorum arithmetic for a replica set of size {@code n} tolerating {@code f = floor((n - 1) / 3)}
 * Byzantine replicas.
 *
 * <p>The quorum is {@code ceil((n + f + 1) / 2)}, the size Fabric's configtxgen writes into {@code
 * /Channel/Orderer/BlockValidation}. For {@code n = 3f + 1} it equals PBFT's {@code 2f + 1}; for
 * other sizes (a channel growing from 4 to 5 consenters) it keeps the property PBFT needs: any two
 * quorums share at least {@code f + 1} replicas, so at least one correct one, while {@code n - f}
 * correct replicas can still form a quorum on their own.
 *
 * @param n number of replicas, at least 1
 */
public record Quorums(int n) {

  public Quorums {
    if (n < 1) {
      throw new IllegalArgumentException("replica count is " + n + " but must be at least 1");
    }
  }

  /** The number of Byzantine replicas tolerated. */
  public int f() {
    return (n - 1) / 3;
  }

  /** Matching votes needed to prepare, commit, make a checkpoint stable, or certify a block. */
  public int quorum() {
    return (n + f() + 2) / 2;
  }

  /** Matching votes that prove at least one correct replica vouches for something. */
  public int weakQuorum() {
    return f() + 1;
  }
}
