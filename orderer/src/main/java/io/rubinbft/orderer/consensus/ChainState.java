package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.RequestId;
import io.rubinbft.orderer.block.FabricProposals;
import io.rubinbft.orderer.block.ProposalChain;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.crypto.Sha256;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;

/**
 * A channel's state as block assembly and checks ({@link FabricProposals}) see it: the config in
 * force after each block ({@link ConfigStates}), the transactions ordered ({@link
 * OrderedTransactions}, exact) and the epoch rule ({@link EpochRule}).
 */
public final class ChainState implements ProposalChain<ConfigState> {

  private final ConfigStates configs;
  private final OrderedTransactions ordered;
  private final Sha256 sha256;

  private ChainState(ConfigStates configs, OrderedTransactions ordered, Sha256 sha256) {
    this.configs = configs;
    this.ordered = ordered;
    this.sha256 = sha256;
  }

  /**
   * Block assembly and checks for a channel.
   *
   * @param base the last block before sequence 1 (the genesis block)
   * @param configs the config in force after each block
   * @param ordered the requests the channel has ordered
   */
  public static FabricProposals<ConfigState> proposals(
      Block base, ConfigStates configs, OrderedTransactions ordered, Sha256 sha256) {
    return new FabricProposals<>(base, new ChainState(configs, ordered, sha256));
  }

  @Override
  public Optional<ConfigState> after(Block previous) {
    return configs.after(previous);
  }

  @Override
  public void record(Block block, ConfigState before) {
    configs.record(block, before);
  }

  @Override
  public Optional<Long> orderedIn(String requestKey) {
    return ordered.blockOf(requestKey);
  }

  @Override
  public RequestId requestId(byte[] envelope) {
    return FabricRequests.ofOrdered(envelope, sha256).id();
  }

  @Override
  public boolean endsEpoch(ChannelConfig epoch, Proposal proposal) {
    return EpochRule.nextEpoch(epoch, proposal).isPresent();
  }
}
