package io.rubinbft.bft.host;

import io.rubinbft.bft.Decision;

/** The application behind an {@link EpochHost}: the ledger that executes decisions. */
public interface HostApplication {

  /**
   * A decision as soon as a step yields it, before the batch's WAL sync: a decision is a quorum's,
   * so it stands whether or not this node crashes before the sync (the orderer counts its requests
   * as ordered at once). Never called past the decision that ends the epoch.
   */
  default void decided(Decision decision) {}

  /**
   * Executes a decision: after the WAL records of its batch are durable, in sequence order, never
   * past the decision that ends the epoch.
   *
   * @throws InterruptedException when the host is stopped while the application waits for room
   */
  void execute(Decision decision) throws InterruptedException;

  /**
   * Returns once the application's durable store holds {@code anchor}, the decision that ended the
   * epoch: the next epoch's WAL replaces this one's only then, so that a restart finds the epoch
   * its WAL belongs to. An application whose {@link #execute} is durable when it returns has
   * nothing to wait for.
   *
   * @throws InterruptedException when the host is stopped while waiting
   */
  default void awaitDurable(Decision anchor) throws InterruptedException {}
}
