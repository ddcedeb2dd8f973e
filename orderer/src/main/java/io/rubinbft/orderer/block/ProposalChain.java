package io.rubinbft.orderer.block;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.RequestId;
import io.rubinbft.orderer.channel.ChannelConfig;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;

/**
 * The channel state that block assembly and checks ({@link FabricProposals}) read and extend: the
 * config in force after each block, the transactions already ordered and the epoch rule. The
 * consensus package keeps it ({@code consensus.ChainState}); this interface keeps the block package
 * free of it.
 *
 * @param <R> the config in force and the checks under it, as the keeper of the state names it
 */
public interface ProposalChain<R extends ProposalChain.Rules> {

  /** One config and the checks a block is cut and checked under. */
  interface Rules {

    /** The config. */
    ChannelConfig config();

    /** Its envelope checks. */
    EnvelopeValidator envelopes();

    /** Its proposed-block check. */
    ProposedBlockVerifier proposals();
  }

  /**
   * The config in force for the block after {@code previous}, or empty when this replica cannot
   * know it.
   */
  Optional<R> after(Block previous);

  /** Records {@code block}, checked or assembled under {@code before}. */
  void record(Block block, R before);

  /** The block a request (by its key) was ordered in, if it was. */
  Optional<Long> orderedIn(String requestKey);

  /** The request id under which {@code envelope} is ordered. */
  RequestId requestId(byte[] envelope);

  /** Whether {@code proposal} ends the epoch that runs {@code epoch}. */
  boolean endsEpoch(ChannelConfig epoch, Proposal proposal);
}
