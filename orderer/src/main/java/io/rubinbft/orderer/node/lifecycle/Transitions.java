package io.rubinbft.orderer.node.lifecycle;

import io.rubinbft.orderer.node.lifecycle.ChannelAction.AskForNewerConfig;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.Close;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.CreateLedgerAndServe;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.Discard;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.KeepLedgerReadable;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.OrderUpdate;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.Refuse;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.RestartAfter;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.SaveJoinBlockAndOnboard;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.Serve;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.StartCatchUp;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.StartFollower;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.StartReplica;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.BecameConsenter;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.CaughtUp;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.Join;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.LeftConsenters;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.MaybeBehind;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.NewerConfigClaimed;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.Onboarded;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.OnboardingStopped;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.Remove;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.ReplicaStopped;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.RestartDue;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.Resume;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.ResumeOnboarding;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.StartFailed;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.Started;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent.Update;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Absent;
import io.rubinbft.orderer.node.lifecycle.ChannelState.CatchingUp;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Consenter;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Follower;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Joining;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Onboarding;
import io.rubinbft.orderer.node.lifecycle.ChannelState.OnboardingFailed;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Restarting;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Stopped;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Switching;
import io.rubinbft.orderer.participation.ParticipationException.Reason;
import java.time.Duration;

/**
 * The channel lifecycle: what each event does in each state. A pure function; the lifecycle thread
 * runs it and carries out the actions. An event a state has no use for is ignored: news from a
 * replica, follower or timer of a channel that moved on meanwhile, or (in the short-lived {@link
 * Joining} and {@link Switching}) nothing, as the lifecycle thread handles nothing else until a
 * start it began has answered.
 */
public final class Transitions {

  /** The first pause before a channel whose replica stopped on an error is served again. */
  public static final Duration RESTART_PAUSE = Duration.ofSeconds(2);

  /** The longest pause between attempts to serve such a channel again. */
  public static final Duration RESTART_PAUSE_MAX = Duration.ofMinutes(1);

  static final Refuse ALREADY_EXISTS = new Refuse(Reason.ALREADY_EXISTS, "channel already exists");
  static final Refuse DOES_NOT_EXIST = new Refuse(Reason.NOT_FOUND, "channel does not exist");

  // Fabric's ErrChannelNotReady, with its words.
  static final Refuse NOT_READY =
      new Refuse(Reason.FOLLOWER, "channel is not ready, he is a follower");

  private Transitions() {}

  /** The state {@code event} leads to from {@code state}, and what to do on the way. */
  public static Transition next(ChannelState state, ChannelEvent event) {
    if (event instanceof Update update) {
      return update(state, update.channel());
    }
    return switch (state) {
      case Absent absent -> fromAbsent(absent, event);
      case Joining joining -> fromJoining(joining, event);
      case Onboarding onboarding -> fromOnboarding(onboarding, event);
      case OnboardingFailed failed -> joinedOnly(failed, event);
      case Consenter consenter -> fromConsenter(consenter, event);
      case Follower follower -> fromFollower(follower, event);
      case Switching switching -> fromSwitching(switching, event);
      case CatchingUp catchingUp -> fromCatchingUp(catchingUp, event);
      case Restarting restarting -> fromRestarting(restarting, event);
      case Stopped stopped -> joinedOnly(stopped, event);
    };
  }

  private static Transition fromAbsent(Absent state, ChannelEvent event) {
    return switch (event) {
      case Join join when join.leftOnDisk() -> Transition.refuse(state, ALREADY_EXISTS);
      case Join join when join.overHeap() != null ->
          Transition.refuse(state, new Refuse(Reason.BAD_REQUEST, join.overHeap()));
      case Join join when join.genesis() ->
          Transition.to(new Joining(null, false), new CreateLedgerAndServe());
      case Join join ->
          Transition.to(new Joining(join.relation(), false), new SaveJoinBlockAndOnboard());
      case Resume resume -> Transition.to(new Joining(null, true), new Serve());
      case ResumeOnboarding resume ->
          Transition.to(new Joining(resume.relation(), true), new ChannelAction.ResumeOnboarding());
      case Remove remove -> Transition.refuse(state, DOES_NOT_EXIST);
      default -> Transition.ignore(state);
    };
  }

  private static Transition fromJoining(Joining state, ChannelEvent event) {
    return switch (event) {
      case Started started ->
          Transition.to(
              state.onboardingAs() != null
                  ? new Onboarding(state.onboardingAs())
                  : served(started.relation()));
      // Nothing is left behind by a join that fails; a resumed channel keeps its data (the node
      // does not start).
      case StartFailed failed when state.resumed() -> Transition.to(new Absent(), refusal(failed));
      case StartFailed failed -> Transition.to(new Absent(), new Discard(), refusal(failed));
      default -> Transition.ignore(state);
    };
  }

  private static Transition fromOnboarding(Onboarding state, ChannelEvent event) {
    return switch (event) {
      case Onboarded onboarded -> Transition.to(state, new Serve());
      case Started started -> Transition.to(served(started.relation()));
      case StartFailed failed ->
          Transition.to(
              new OnboardingFailed(
                  state.relation(), "cannot serve the onboarded channel: " + failed.reason()));
      case OnboardingStopped stopped ->
          Transition.to(new OnboardingFailed(state.relation(), stopped.reason()));
      default -> joinedOnly(state, event);
    };
  }

  private static Transition fromConsenter(Consenter state, ChannelEvent event) {
    return switch (event) {
      case LeftConsenters left ->
          Transition.to(new Switching(Relation.FOLLOWER), new Close(), new StartFollower());
      case MaybeBehind behind ->
          Transition.to(state, new AskForNewerConfig(behind.why(), behind.grace()));
      case NewerConfigClaimed claimed when claimed.stillBehind() ->
          Transition.to(new CatchingUp(), new Close(), new StartCatchUp(claimed.why()));
      case ReplicaStopped stopped ->
          Transition.to(new Restarting(RESTART_PAUSE), new RestartAfter(RESTART_PAUSE));
      default -> joinedOnly(state, event);
    };
  }

  private static Transition fromFollower(Follower state, ChannelEvent event) {
    return switch (event) {
      case BecameConsenter became ->
          Transition.to(new Switching(Relation.CONSENTER), new Close(), new StartReplica());
      default -> joinedOnly(state, event);
    };
  }

  private static Transition fromSwitching(Switching state, ChannelEvent event) {
    return switch (event) {
      case Started started -> Transition.to(served(started.relation()));
      case StartFailed failed ->
          Transition.to(
              new Stopped(
                  state.to(),
                  (state.to() == Relation.FOLLOWER
                          ? "cannot follow after leaving the consenters: "
                          : "cannot start the replica of a new consenter: ")
                      + failed.reason()),
              new KeepLedgerReadable());
      default -> Transition.ignore(state);
    };
  }

  private static Transition fromCatchingUp(CatchingUp state, ChannelEvent event) {
    return switch (event) {
      case CaughtUp caughtUp -> Transition.to(state, new Close(), new Serve());
      case Started started -> Transition.to(served(started.relation()));
      case StartFailed failed ->
          Transition.to(
              new Stopped(
                  Relation.CONSENTER,
                  "cannot serve the channel after catching up: " + failed.reason()),
              new KeepLedgerReadable());
      default -> joinedOnly(state, event);
    };
  }

  /**
   * The failed replica stays in place while the channel is served again, so the channel never
   * vanishes from the participation API, Broadcast or Deliver in between; while that fails, the
   * pause doubles up to {@link #RESTART_PAUSE_MAX}.
   */
  private static Transition fromRestarting(Restarting state, ChannelEvent event) {
    return switch (event) {
      case RestartDue due -> Transition.to(state, new Close(), new Serve());
      case Started started -> Transition.to(served(started.relation()));
      case StartFailed failed -> {
        Duration pause = state.pause().multipliedBy(2);
        Duration next = pause.compareTo(RESTART_PAUSE_MAX) > 0 ? RESTART_PAUSE_MAX : pause;
        yield Transition.to(new Restarting(next), new RestartAfter(next));
      }
      default -> joinedOnly(state, event);
    };
  }

  /** What every joined channel answers: a second join is refused, a removal deletes it all. */
  private static Transition joinedOnly(ChannelState state, ChannelEvent event) {
    return switch (event) {
      case Join join -> Transition.refuse(state, ALREADY_EXISTS);
      case Remove remove -> Transition.to(new Absent(), new Close(), new Discard());
      default -> Transition.ignore(state);
    };
  }

  /**
   * Fabric's UpdateChannel: only a channel whose replica runs orders a config update; a follower
   * (or an onboarding) answers Fabric's 403, a channel this node does not order 405.
   */
  private static Transition update(ChannelState state, String channel) {
    return switch (state) {
      case Consenter consenter -> Transition.to(state, new OrderUpdate());
      case Restarting restarting -> Transition.to(state, new OrderUpdate());
      case Follower follower -> Transition.refuse(state, NOT_READY);
      case Onboarding onboarding -> Transition.refuse(state, NOT_READY);
      case OnboardingFailed failed -> Transition.refuse(state, NOT_READY);
      case Absent absent ->
          Transition.refuse(state, new Refuse(Reason.NOT_A_CHANNEL, "channel does not exist"));
      case CatchingUp catchingUp -> Transition.refuse(state, notOrdered(channel));
      case Stopped stopped -> Transition.refuse(state, notOrdered(channel));
      case Joining joining -> Transition.ignore(state);
      case Switching switching -> Transition.ignore(state);
    };
  }

  private static Refuse notOrdered(String channel) {
    return new Refuse(
        Reason.NOT_A_CHANNEL,
        "this orderer does not order channel "
            + channel
            + " (it stopped it): send the update to a consenter");
  }

  private static ChannelState served(Relation relation) {
    return relation == Relation.CONSENTER ? new Consenter() : new Follower();
  }

  private static Refuse refusal(StartFailed failed) {
    return new Refuse(failed.badConfig() ? Reason.BAD_REQUEST : Reason.INTERNAL, failed.reason());
  }
}
