package io.rubinbft.orderer.consensus;

import com.google.protobuf.UnsafeByteOperations;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Proposal;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import java.util.Optional;

/**
 * When a config block ends the channel's consensus epoch (docs/RECONFIG.md): its consenters
 * (members, ids, endpoints, certificates) or its PBFT settings (SmartBFT options and the BatchSize
 * limits the replica is sized by) differ from the epoch's. Every replica decides this from the same
 * two configs, so all switch at the same block; a config block that changes neither (an org's MSP,
 * a policy) leaves the epoch running.
 */
public final class EpochRule {

  private EpochRule() {}

  /** Whether config {@code next} starts a new epoch after the epoch running {@code current}. */
  public static boolean startsNewEpoch(ChannelConfig current, ChannelConfig next) {
    return !current.consenters().equals(next.consenters()) || !current.pbft().equals(next.pbft());
  }

  /**
   * The config the next epoch runs when {@code decision} is a config block that ends the epoch
   * running {@code current}; empty for any other decision.
   *
   * @throws IllegalStateException when a decided config block does not read: every backup checked
   *     it, so this replica's own state is broken
   */
  public static Optional<ChannelConfig> nextEpoch(ChannelConfig current, Decision decision) {
    return nextEpoch(current, decision.proposal());
  }

  /**
   * As {@link #nextEpoch(ChannelConfig, Decision)} for a proposal this replica accepted or
   * assembled (bft-core's end-of-epoch barrier asks before the decision exists).
   */
  public static Optional<ChannelConfig> nextEpoch(ChannelConfig current, Proposal proposal) {
    var requests = proposal.requests();
    if (requests.size() != 1
        || !EnvelopeHeaders.isConfigEnvelope(
            UnsafeByteOperations.unsafeWrap(requests.getFirst().payload()))) {
      return Optional.empty();
    }
    ChannelConfig next;
    try {
      next =
          ConfigBlockReader.read(
              ProposalBlocks.block(proposal)
                  .orElseThrow(
                      () -> new InvalidConfigException("its payload is not a block header")));
    } catch (InvalidConfigException e) {
      throw new IllegalStateException(
          "checked config proposal " + proposal.sequence() + " does not read: " + e.getMessage(),
          e);
    }
    return startsNewEpoch(current, next) ? Optional.of(next) : Optional.empty();
  }
}
