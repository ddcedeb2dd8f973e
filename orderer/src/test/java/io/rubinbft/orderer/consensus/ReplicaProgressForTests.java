package io.rubinbft.orderer.consensus;

/** A replica's progress record for tests outside this package (metrics). */
public final class ReplicaProgressForTests {

  private ReplicaProgressForTests() {}

  /** Nothing accepted or decided yet. */
  public static ReplicaProgress fresh() {
    return new ReplicaProgress();
  }
}
