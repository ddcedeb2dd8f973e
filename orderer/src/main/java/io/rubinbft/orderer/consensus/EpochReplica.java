package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.orderer.channel.ChannelConfig;

/**
 * One consensus epoch of a channel as this node runs it: the replica and what was built for it from
 * the epoch's config (its consenters, indices, keys and limits), used only while the epoch lasts.
 *
 * @param epoch the epoch's name: the number of the config block that started it (0 = genesis)
 * @param config the config of that block
 * @param self this node's replica index in the epoch
 * @param log the epoch's own consensus WAL
 * @param codec the wire codec sized by the epoch's limits
 * @param directory the epoch's members on the network
 * @param archive decisions of this epoch served from the ledger to members catching up
 */
public record EpochReplica(
    long epoch,
    ChannelConfig config,
    int self,
    Replica replica,
    ConsensusLog log,
    MessageCodec codec,
    ReplicaDirectory directory,
    DecisionArchive archive) {

  /** The consenter id of replica {@code index} of this epoch. */
  public long consenterId(int index) {
    return config.consenters().consenters().get(index).id();
  }
}
