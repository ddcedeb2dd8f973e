package io.rubinbft.orderer.participation;

import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;

/** What the participation API asks of the node: the channels it serves, joining and leaving. */
public interface ChannelParticipation {

  /** The names of the channels this node serves, sorted. */
  List<String> channelNames();

  /** The channel's state, or empty if this node does not serve it. */
  Optional<ChannelInfo> info(String channel);

  /**
   * Joins the channel that {@code configBlock} (a genesis or later config block) describes: creates
   * its ledger and its replica. Nothing is left behind when it fails.
   *
   * @param configBlock the block as parsed from {@code configBlockBytes}
   * @param configBlockBytes the block exactly as received: the ledger stores blocks byte for byte
   * @throws ParticipationException with ALREADY_EXISTS, BAD_REQUEST (the block is not a valid join
   *     block, or this node is not one of its consenters) or INTERNAL
   */
  ChannelInfo join(Block configBlock, byte[] configBlockBytes) throws ParticipationException;

  /**
   * Stops serving the channel and removes its ledger and consensus state.
   *
   * @throws ParticipationException with NOT_FOUND, PENDING_REMOVAL or INTERNAL
   */
  void remove(String channel) throws ParticipationException;
}
