package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Handover;
import io.rubinbft.orderer.channel.ChannelConfig;
import java.util.Optional;

/** Starts the replica of the epoch a config block begins, when this node is one of its members. */
@FunctionalInterface
public interface EpochStarter {

  /**
   * @param config the config of the block that ends the previous epoch
   * @param anchor that block's decision: the new epoch orders from its sequence + 1 on
   * @param handover the previous epoch's requests not executed and its decided request ids
   * @return the new epoch's replica, or empty when this node is not among its consenters
   */
  Optional<EpochReplica> start(ChannelConfig config, Decision anchor, Handover handover);
}
