package io.rubinbft.bft.host;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Handover;
import java.util.Optional;

/**
 * Starts the replica of the epoch a decision begins (its config, services, a new empty WAL), when
 * this node is one of its members.
 *
 * @param <E> the environment's epoch
 */
@FunctionalInterface
public interface EpochStarter<E extends HostedEpoch> {

  /**
   * @param ended the epoch {@code anchor} ended (its WAL closed)
   * @param anchor the decision that ended it: the new epoch orders from its sequence + 1 on
   * @param handover the ended replica's requests not executed and its decided request ids
   * @return the new epoch, or empty when this node is not among its members
   */
  Optional<E> start(E ended, Decision anchor, Handover handover);
}
