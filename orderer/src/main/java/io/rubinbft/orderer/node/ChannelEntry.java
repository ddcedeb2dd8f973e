package io.rubinbft.orderer.node;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.node.ChannelFailure.Check;
import io.rubinbft.orderer.node.lifecycle.ChannelState;
import io.rubinbft.orderer.node.lifecycle.ChannelState.CatchingUp;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Consenter;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Follower;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Onboarding;
import io.rubinbft.orderer.node.lifecycle.ChannelState.OnboardingFailed;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Restarting;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Stopped;
import io.rubinbft.orderer.node.lifecycle.Relation;
import io.rubinbft.orderer.onboarding.CatchUp;
import io.rubinbft.orderer.onboarding.ChannelOnboarding;
import io.rubinbft.orderer.onboarding.FollowerChannel;
import io.rubinbft.orderer.onboarding.PullStats;
import io.rubinbft.orderer.participation.ChannelInfo;
import io.rubinbft.orderer.service.ServedChannel;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One channel as the lifecycle thread last left it: its state and what runs for it (its handle: a
 * {@link ChannelRuntime}, {@link FollowerChannel}, {@link ChannelOnboarding}, {@link CatchUp} or
 * {@link StoppedChannel}). Everything the participation API, {@code /healthz} and the metrics say
 * of a channel is read from one entry.
 *
 * @param handleTag names the handle: news from a handle that is no longer the channel's is dropped
 * @param joinTag names this joining of the channel, the same until it is removed
 * @param ledger the channel's ledger, once it is served
 */
record ChannelEntry(
    ChannelState state,
    @Nullable Object handle,
    long handleTag,
    long joinTag,
    @Nullable ChannelLedger ledger) {

  ChannelEntry withState(ChannelState next) {
    return new ChannelEntry(next, handle, handleTag, joinTag, ledger);
  }

  ChannelEntry withHandle(Object next, long tag, @Nullable ChannelLedger servedLedger) {
    return new ChannelEntry(state, next, tag, joinTag, servedLedger);
  }

  /** The replica runtime, while one runs or its failure keeps it listed. */
  Optional<ChannelRuntime> runtime() {
    return state instanceof Consenter || state instanceof Restarting
        ? as(ChannelRuntime.class)
        : Optional.empty();
  }

  /** The follower, while the channel is followed. */
  Optional<FollowerChannel> follower() {
    return state instanceof Follower ? as(FollowerChannel.class) : Optional.empty();
  }

  /**
   * What Broadcast and Deliver see: the replica, the follower, or, when this node stopped serving
   * the channel for good, its ledger as it was (Broadcast refused). Nothing while it is onboarded
   * or catches up.
   */
  Optional<ServedChannel> served() {
    return switch (state) {
      case Consenter c -> runtime().map(ServedChannel.class::cast);
      case Restarting r -> runtime().map(ServedChannel.class::cast);
      case Follower f -> follower().map(ServedChannel.class::cast);
      case Stopped s ->
          as(StoppedChannel.class).filter(StoppedChannel::readable).map(ServedChannel.class::cast);
      default -> Optional.empty();
    };
  }

  /** What the block puller of the channel has done, while the channel is pulled. */
  Optional<PullStats> pullStats() {
    return switch (state) {
      case Follower f -> follower().map(FollowerChannel::pullStats);
      case CatchingUp c -> as(CatchUp.class).map(CatchUp::pullStats);
      case Onboarding o -> as(ChannelOnboarding.class).map(ChannelOnboarding::pullStats);
      case OnboardingFailed o -> as(ChannelOnboarding.class).map(ChannelOnboarding::pullStats);
      default -> Optional.empty();
    };
  }

  /**
   * Why this node stopped serving the channel for good, if it did, and which {@code /healthz} check
   * reports it: its replica ("consensus") or ledger writer ("ledger") stopped; a follower's pulling
   * or an onboarding stopped, or a switch between consenter and follower failed ("channels"). The
   * participation API reports exactly these channels "failed".
   */
  Optional<ChannelFailure> failure() {
    return switch (state) {
      case Consenter c -> runtimeFailure();
      case Restarting r -> runtimeFailure();
      case Follower f -> channels(follower().flatMap(FollowerChannel::failure));
      case OnboardingFailed failed -> channels(Optional.of(failed.reason()));
      // The stopped channel's own reason says too when even its ledger cannot be served.
      case Stopped stopped ->
          channels(
              Optional.of(
                  as(StoppedChannel.class).map(StoppedChannel::reason).orElse(stopped.reason())));
      default -> Optional.empty();
    };
  }

  private static Optional<ChannelFailure> channels(Optional<String> reason) {
    return reason.map(r -> new ChannelFailure(Check.CHANNELS, r));
  }

  private Optional<ChannelFailure> runtimeFailure() {
    return runtime()
        .flatMap(
            runtime ->
                runtime
                    .replicaFailure()
                    .map(reason -> new ChannelFailure(Check.CONSENSUS, reason))
                    .or(
                        () ->
                            runtime
                                .ledgerWriterFailure()
                                .map(reason -> new ChannelFailure(Check.LEDGER, reason))));
  }

  /**
   * The channel as the participation API shows it. Consenters and followers are "active"; a channel
   * pulling the blocks before its join block, or a consenter catching up, is "onboarding" (with the
   * relation it will have). A channel with a {@link #failure} is "failed", with its relation and
   * height unchanged. It stays so until it is removed.
   */
  Optional<ChannelInfo> info(String name) {
    String url = ChannelInfo.url(name);
    String status = failure().isPresent() ? "failed" : "active";
    return switch (state) {
      case Consenter c -> runtime().map(r -> runtimeInfo(name, url, status, r));
      case Restarting r -> runtime().map(runtime -> runtimeInfo(name, url, status, runtime));
      case CatchingUp c ->
          Optional.of(
              new ChannelInfo(name, url, Relation.CONSENTER.word(), "onboarding", height()));
      case Follower f ->
          Optional.of(new ChannelInfo(name, url, Relation.FOLLOWER.word(), status, height()));
      case Onboarding o ->
          Optional.of(new ChannelInfo(name, url, o.relation().word(), "onboarding", onboarded()));
      case OnboardingFailed o ->
          Optional.of(new ChannelInfo(name, url, o.relation().word(), "failed", onboarded()));
      case Stopped s ->
          Optional.of(new ChannelInfo(name, url, s.relation().word(), "failed", height()));
      default -> Optional.empty();
    };
  }

  private ChannelInfo runtimeInfo(String name, String url, String status, ChannelRuntime runtime) {
    String relation = (runtime.consenter() ? Relation.CONSENTER : Relation.FOLLOWER).word();
    return new ChannelInfo(name, url, relation, status, runtime.ledger().height());
  }

  private long height() {
    return ledger == null ? 0 : ledger.height();
  }

  private long onboarded() {
    return as(ChannelOnboarding.class).map(ChannelOnboarding::height).orElse(0L);
  }

  private <T> Optional<T> as(Class<T> type) {
    return type.isInstance(handle) ? Optional.of(type.cast(handle)) : Optional.empty();
  }
}
