package io.rubinbft.orderer.participation;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/** What the participation API asks of the node: the channels it serves, joining and leaving. */
public interface ChannelParticipation {

  /** The names of the channels this node serves, sorted. */
  List<String> channelNames();

  /**
   * The channel's state, or empty if this node does not serve it: status "active", "onboarding", or
   * "failed" once this node stopped serving it for good (it stays so until it is removed).
   */
  Optional<ChannelInfo> info(String channel);

  /**
   * Joins the channel that {@code configBlock} describes: with its genesis block the channel is
   * served at once; with a later config block it is onboarded first (the blocks before it pulled
   * from the channel's orderers; status "onboarding"). The relation is "consenter" when this node
   * is in the block's consenter set, else "follower". Nothing is left behind when it fails.
   *
   * @param configBlock the block as parsed from {@code configBlockBytes}
   * @param configBlockBytes the block exactly as received: the ledger stores blocks byte for byte
   * @throws ParticipationException with ALREADY_EXISTS, BAD_REQUEST (the block is not a valid join
   *     block, or this node is neither a consenter nor a member of an orderer organization of the
   *     channel) or INTERNAL
   */
  ChannelInfo join(Block configBlock, byte[] configBlockBytes) throws ParticipationException;

  /**
   * Orders a config update on {@code channel}, as Broadcast would: {@code update}'s signature must
   * satisfy /Channel/Writers and its signatures the changed elements' mod_policies. Answers the
   * channel's info once the resulting CONFIG envelope is in the request pool (not yet ordered).
   *
   * @throws ParticipationException with NOT_A_CHANNEL when this node does not serve {@code
   *     channel}, BAD_REQUEST with Fabric's reason when the update is refused
   */
  ChannelInfo update(String channel, Envelope update) throws ParticipationException;

  /**
   * The bytes of one block of the channel, exactly as the ledger stores them (and Deliver serves
   * them).
   *
   * @throws ParticipationException with NOT_FOUND when the channel or the block does not exist
   */
  ByteString block(String channel, BlockId block) throws ParticipationException;

  /**
   * Stops serving the channel and removes its ledger and consensus state, whatever its status
   * ("failed" included).
   *
   * @throws ParticipationException with NOT_FOUND, PENDING_REMOVAL or INTERNAL
   */
  void remove(String channel) throws ParticipationException;
}
