package io.rubinbft.orderer.node;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.consensus.ConfigStates;
import io.rubinbft.orderer.service.ReadOnlyChannel;
import io.rubinbft.orderer.service.SubmitOutcome;
import io.rubinbft.orderer.validation.ChannelRules;
import java.util.Optional;

/**
 * A channel this node stopped serving for good because a switch between consenter and follower, or
 * the return from a catch-up, failed. Neither a replica nor a follower runs for it, so its ledger
 * no longer grows, but it stays until the channel is removed and Deliver keeps serving the blocks
 * it holds, under the configs along its chain, as a stopped replica's channel does. Broadcast is
 * refused with the reason.
 */
final class StoppedChannel implements ReadOnlyChannel {

  private final String relation;
  private final ChannelLedger ledger;
  private final String reason;
  private final Optional<ConfigStates> configs;

  private StoppedChannel(
      String relation, ChannelLedger ledger, String reason, Optional<ConfigStates> configs) {
    this.relation = relation;
    this.ledger = ledger;
    this.reason = reason;
    this.configs = configs;
  }

  /**
   * The stopped channel of {@code ledger}: {@code relation} is the one it had or was switching to,
   * {@code reason} why it stopped. When even its newest config cannot be read, its ledger is not
   * served and the reason says so.
   */
  static StoppedChannel of(NodeContext node, ChannelLedger ledger, String relation, String reason) {
    try {
      return new StoppedChannel(
          relation, ledger, reason, Optional.of(ChannelRuntime.configStates(node, ledger)));
    } catch (InvalidConfigException | RuntimeException e) {
      return new StoppedChannel(
          relation,
          ledger,
          reason + "; its ledger is not served either: " + e.getMessage(),
          Optional.empty());
    }
  }

  /** The relation the channel had, or was switching to, when it stopped. */
  String relation() {
    return relation;
  }

  /** Why the channel stopped. */
  String reason() {
    return reason;
  }

  /** Whether Deliver can serve the ledger: its configs could be read. */
  boolean readable() {
    return configs.isPresent();
  }

  @Override
  public ChannelRules rules() {
    return configs.orElseThrow().committed().rules();
  }

  @Override
  public ChannelLedger ledger() {
    return ledger;
  }

  @Override
  public SubmitOutcome refusal() {
    return new SubmitOutcome.NotServing(
        "this orderer stopped serving channel '"
            + ledger.name()
            + "' ("
            + reason
            + "): it only serves the blocks it has, send to another orderer of the channel");
  }
}
