package io.rubinbft.orderer.node.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every (state, event) pair of the channel lifecycle against a table: the pairs that do something
 * are listed with the state they lead to and the actions, in order; every other pair must change
 * nothing and do nothing (news of a handle the channel no longer has, or an event the short-lived
 * start states never see). Refusals carry the HTTP status and words the participation API answers
 * (its handler prefixes them with "cannot join: ", "cannot remove: ", "cannot update: ").
 */
class TransitionsTest {

  private static final String CHANNEL = "mychannel";
  private static final Duration PAUSE = Transitions.RESTART_PAUSE;
  private static final Duration GRACE = Duration.ofSeconds(3);

  // One of each state, with each flag and relation a transition depends on.
  private static final List<ChannelState> STATES =
      List.of(
          new Absent(),
          new Joining(null, false),
          new Joining(Relation.FOLLOWER, false),
          new Joining(null, true),
          new Joining(Relation.CONSENTER, true),
          new Onboarding(Relation.CONSENTER),
          new OnboardingFailed(Relation.FOLLOWER, "onboarding failed: disk full"),
          new Consenter(),
          new Follower(),
          new Switching(Relation.FOLLOWER),
          new Switching(Relation.CONSENTER),
          new CatchingUp(),
          new Restarting(PAUSE),
          new Restarting(Duration.ofSeconds(32)),
          new Restarting(Transitions.RESTART_PAUSE_MAX),
          new Stopped(Relation.CONSENTER, "cannot start the replica of a new consenter: x"));

  private static final String OVER_HEAP = "cannot join channel 'c': with it ... need a heap of";

  private static final List<ChannelEvent> EVENTS =
      List.of(
          new Join(true, Relation.CONSENTER, false),
          new Join(true, Relation.FOLLOWER, false),
          new Join(false, Relation.FOLLOWER, false),
          new Join(true, Relation.CONSENTER, true),
          new Join(false, Relation.CONSENTER, true),
          new Join(true, Relation.CONSENTER, false, OVER_HEAP),
          new Join(false, Relation.FOLLOWER, true, OVER_HEAP),
          new Resume(),
          new ResumeOnboarding(Relation.CONSENTER),
          new Remove(),
          new Update(CHANNEL),
          new Started(Relation.CONSENTER),
          new Started(Relation.FOLLOWER),
          new StartFailed("bad config", true),
          new StartFailed("disk full", false),
          new Onboarded(),
          new OnboardingStopped("onboarding failed: disk full"),
          new LeftConsenters(),
          new BecameConsenter(),
          new MaybeBehind("consenters run epoch 2", GRACE),
          new NewerConfigClaimed("consenters run epoch 2", true),
          new NewerConfigClaimed("consenters run epoch 2", false),
          new CaughtUp(),
          new ReplicaStopped(),
          new RestartDue());

  private static final Refuse ALREADY_EXISTS =
      new Refuse(Reason.ALREADY_EXISTS, "channel already exists");
  private static final Refuse DOES_NOT_EXIST =
      new Refuse(Reason.NOT_FOUND, "channel does not exist");
  private static final Refuse NOT_READY =
      new Refuse(Reason.FOLLOWER, "channel is not ready, he is a follower");
  private static final Refuse NOT_ORDERED =
      new Refuse(
          Reason.NOT_A_CHANNEL,
          "this orderer does not order channel mychannel (it stopped it): send the update to a"
              + " consenter");

  /** The pairs that do something; every other pair is {@link Transition#ignore}. */
  private static Map<List<Object>, Transition> table() {
    Map<List<Object>, Transition> table = new HashMap<>();
    Absent absent = new Absent();
    // Joining and resuming.
    row(
        table,
        absent,
        new Join(true, Relation.CONSENTER, false),
        to(new Joining(null, false), new CreateLedgerAndServe()));
    row(
        table,
        absent,
        new Join(true, Relation.FOLLOWER, false),
        to(new Joining(null, false), new CreateLedgerAndServe()));
    row(
        table,
        absent,
        new Join(false, Relation.FOLLOWER, false),
        to(new Joining(Relation.FOLLOWER, false), new SaveJoinBlockAndOnboard()));
    row(table, absent, new Join(true, Relation.CONSENTER, true), refuse(absent, ALREADY_EXISTS));
    row(table, absent, new Join(false, Relation.CONSENTER, true), refuse(absent, ALREADY_EXISTS));
    // A join the heap cannot hold beside the channels held is refused, unless the channel exists.
    row(
        table,
        absent,
        new Join(true, Relation.CONSENTER, false, OVER_HEAP),
        refuse(absent, new Refuse(Reason.BAD_REQUEST, OVER_HEAP)));
    row(
        table,
        absent,
        new Join(false, Relation.FOLLOWER, true, OVER_HEAP),
        refuse(absent, ALREADY_EXISTS));
    row(table, absent, new Resume(), to(new Joining(null, true), new Serve()));
    row(
        table,
        absent,
        new ResumeOnboarding(Relation.CONSENTER),
        to(new Joining(Relation.CONSENTER, true), new ChannelAction.ResumeOnboarding()));
    row(table, absent, new Remove(), refuse(absent, DOES_NOT_EXIST));
    row(
        table,
        absent,
        new Update(CHANNEL),
        refuse(absent, new Refuse(Reason.NOT_A_CHANNEL, "channel does not exist")));
    for (boolean resumed : new boolean[] {false, true}) {
      Joining serving = new Joining(null, resumed);
      row(table, serving, new Started(Relation.CONSENTER), to(new Consenter()));
      row(table, serving, new Started(Relation.FOLLOWER), to(new Follower()));
      Joining onboarding = new Joining(resumed ? Relation.CONSENTER : Relation.FOLLOWER, resumed);
      row(
          table,
          onboarding,
          new Started(Relation.CONSENTER),
          to(new Onboarding(onboarding.onboardingAs())));
      row(
          table,
          onboarding,
          new Started(Relation.FOLLOWER),
          to(new Onboarding(onboarding.onboardingAs())));
      for (Joining joining : List.of(serving, onboarding)) {
        // A failed join leaves nothing behind; a failed resume keeps the data (the node stops).
        List<ChannelAction> cleanUp = resumed ? List.of() : List.of(new Discard());
        row(
            table,
            joining,
            new StartFailed("bad config", true),
            to(absent, cleanUp, new Refuse(Reason.BAD_REQUEST, "bad config")));
        row(
            table,
            joining,
            new StartFailed("disk full", false),
            to(absent, cleanUp, new Refuse(Reason.INTERNAL, "disk full")));
      }
    }
    // Onboarding.
    Onboarding onboarding = new Onboarding(Relation.CONSENTER);
    row(table, onboarding, new Onboarded(), to(onboarding, new Serve()));
    row(table, onboarding, new Started(Relation.CONSENTER), to(new Consenter()));
    row(table, onboarding, new Started(Relation.FOLLOWER), to(new Follower()));
    row(
        table,
        onboarding,
        new StartFailed("bad config", true),
        to(
            new OnboardingFailed(
                Relation.CONSENTER, "cannot serve the onboarded channel: bad config")));
    row(
        table,
        onboarding,
        new StartFailed("disk full", false),
        to(
            new OnboardingFailed(
                Relation.CONSENTER, "cannot serve the onboarded channel: disk full")));
    row(
        table,
        onboarding,
        new OnboardingStopped("onboarding failed: disk full"),
        to(new OnboardingFailed(Relation.CONSENTER, "onboarding failed: disk full")));
    // Serving.
    Consenter consenter = new Consenter();
    row(
        table,
        consenter,
        new LeftConsenters(),
        to(new Switching(Relation.FOLLOWER), new Close(), new StartFollower()));
    row(
        table,
        consenter,
        new MaybeBehind("consenters run epoch 2", GRACE),
        to(consenter, new AskForNewerConfig("consenters run epoch 2", GRACE)));
    row(
        table,
        consenter,
        new NewerConfigClaimed("consenters run epoch 2", true),
        to(new CatchingUp(), new Close(), new StartCatchUp("consenters run epoch 2")));
    row(table, consenter, new ReplicaStopped(), to(new Restarting(PAUSE), new RestartAfter(PAUSE)));
    Follower follower = new Follower();
    row(
        table,
        follower,
        new BecameConsenter(),
        to(new Switching(Relation.CONSENTER), new Close(), new StartReplica()));
    for (Switching switching :
        List.of(new Switching(Relation.FOLLOWER), new Switching(Relation.CONSENTER))) {
      row(table, switching, new Started(Relation.CONSENTER), to(new Consenter()));
      row(table, switching, new Started(Relation.FOLLOWER), to(new Follower()));
      String prefix =
          switching.to() == Relation.FOLLOWER
              ? "cannot follow after leaving the consenters: "
              : "cannot start the replica of a new consenter: ";
      for (String reason : List.of("bad config", "disk full")) {
        row(
            table,
            switching,
            new StartFailed(reason, reason.equals("bad config")),
            to(new Stopped(switching.to(), prefix + reason), new KeepLedgerReadable()));
      }
    }
    // Catching up and restarting.
    CatchingUp catchingUp = new CatchingUp();
    row(table, catchingUp, new CaughtUp(), to(catchingUp, new Close(), new Serve()));
    row(table, catchingUp, new Started(Relation.CONSENTER), to(consenter));
    row(table, catchingUp, new Started(Relation.FOLLOWER), to(follower));
    for (String reason : List.of("bad config", "disk full")) {
      row(
          table,
          catchingUp,
          new StartFailed(reason, reason.equals("bad config")),
          to(
              new Stopped(
                  Relation.CONSENTER, "cannot serve the channel after catching up: " + reason),
              new KeepLedgerReadable()));
    }
    for (Duration pause : List.of(PAUSE, Duration.ofSeconds(32), Transitions.RESTART_PAUSE_MAX)) {
      Restarting restarting = new Restarting(pause);
      // The pause doubles per failed attempt, up to the most.
      Duration next = pause.equals(PAUSE) ? Duration.ofSeconds(4) : Transitions.RESTART_PAUSE_MAX;
      row(table, restarting, new RestartDue(), to(restarting, new Close(), new Serve()));
      row(table, restarting, new Started(Relation.CONSENTER), to(consenter));
      row(table, restarting, new Started(Relation.FOLLOWER), to(follower));
      row(
          table,
          restarting,
          new StartFailed("bad config", true),
          to(new Restarting(next), new RestartAfter(next)));
      row(
          table,
          restarting,
          new StartFailed("disk full", false),
          to(new Restarting(next), new RestartAfter(next)));
    }
    // Every joined channel refuses a second join and is removed whatever its state; a config update
    // is ordered only where a replica runs.
    for (ChannelState joined : STATES) {
      if (joined instanceof Absent || joined instanceof Joining || joined instanceof Switching) {
        continue;
      }
      row(table, joined, new Join(true, Relation.CONSENTER, false), refuse(joined, ALREADY_EXISTS));
      row(table, joined, new Join(true, Relation.FOLLOWER, false), refuse(joined, ALREADY_EXISTS));
      row(table, joined, new Join(false, Relation.FOLLOWER, false), refuse(joined, ALREADY_EXISTS));
      row(table, joined, new Join(true, Relation.CONSENTER, true), refuse(joined, ALREADY_EXISTS));
      row(table, joined, new Join(false, Relation.CONSENTER, true), refuse(joined, ALREADY_EXISTS));
      row(
          table,
          joined,
          new Join(true, Relation.CONSENTER, false, OVER_HEAP),
          refuse(joined, ALREADY_EXISTS));
      row(
          table,
          joined,
          new Join(false, Relation.FOLLOWER, true, OVER_HEAP),
          refuse(joined, ALREADY_EXISTS));
      row(table, joined, new Remove(), to(absent, new Close(), new Discard()));
      row(
          table,
          joined,
          new Update(CHANNEL),
          switch (joined) {
            case Consenter c -> to(joined, new OrderUpdate());
            case Restarting r -> to(joined, new OrderUpdate());
            case CatchingUp c -> refuse(joined, NOT_ORDERED);
            case Stopped s -> refuse(joined, NOT_ORDERED);
            default -> refuse(joined, NOT_READY); // following or onboarding
          });
    }
    return table;
  }

  @Test
  void everyStateAndEventAnswersAsTheTableSays() {
    Map<List<Object>, Transition> table = table();
    List<String> wrong = new ArrayList<>();
    int pairs = 0;
    for (ChannelState state : STATES) {
      for (ChannelEvent event : EVENTS) {
        pairs++;
        Transition expected = table.getOrDefault(List.of(state, event), Transition.ignore(state));
        Transition actual = Transitions.next(state, event);
        if (!actual.equals(expected)) {
          wrong.add(state + " + " + event + ": expected " + expected + " but was " + actual);
        }
      }
    }
    assertThat(wrong).as("pairs answered otherwise than the table").isEmpty();
    assertThat(pairs).isEqualTo(STATES.size() * EVENTS.size());
    // Every row names a pair the loop checked (a typo would hide a row).
    assertThat(table.keySet())
        .allMatch(pair -> STATES.contains(pair.get(0)) && EVENTS.contains(pair.get(1)));
  }

  @Test
  void theTableHasEveryKindOfStateAndEvent() {
    assertThat(kinds(STATES)).isEqualTo(permitted(ChannelState.class));
    assertThat(kinds(EVENTS)).isEqualTo(permitted(ChannelEvent.class));
  }

  @Test
  void joiningASecondTimeOrRemovingTwiceAnswersWhatTheRestApiAnswers() {
    Transition joined = Transitions.next(new Follower(), new Join(true, Relation.CONSENTER, false));
    Refuse again = (Refuse) joined.actions().getFirst();
    assertThat(again.reason().httpStatus()).isEqualTo(405);
    assertThat("cannot join: " + again.message()).isEqualTo("cannot join: channel already exists");

    Transition removed = Transitions.next(new Absent(), new Remove());
    Refuse gone = (Refuse) removed.actions().getFirst();
    assertThat(gone.reason().httpStatus()).isEqualTo(404);
    assertThat("cannot remove: " + gone.message())
        .isEqualTo("cannot remove: channel does not exist");

    Refuse follower =
        (Refuse)
            Transitions.next(new Onboarding(Relation.FOLLOWER), new Update(CHANNEL))
                .actions()
                .getFirst();
    assertThat(follower.reason().httpStatus()).isEqualTo(403);
    Refuse unknown =
        (Refuse) Transitions.next(new Absent(), new Update(CHANNEL)).actions().getFirst();
    assertThat(unknown.reason().httpStatus()).isEqualTo(405);
  }

  private static Set<Class<?>> kinds(List<?> samples) {
    Set<Class<?>> kinds = new LinkedHashSet<>();
    samples.forEach(sample -> kinds.add(sample.getClass()));
    return kinds;
  }

  private static Set<Class<?>> permitted(Class<?> sealed) {
    return new LinkedHashSet<>(Arrays.asList(sealed.getPermittedSubclasses()));
  }

  private static void row(
      Map<List<Object>, Transition> table,
      ChannelState state,
      ChannelEvent event,
      Transition next) {
    Transition previous = table.put(List.of(state, event), next);
    assertThat(previous).as("a second row for %s + %s", state, event).isNull();
  }

  private static Transition to(ChannelState state, ChannelAction... actions) {
    return Transition.to(state, actions);
  }

  private static Transition to(ChannelState state, List<ChannelAction> first, ChannelAction last) {
    List<ChannelAction> actions = new ArrayList<>(first);
    actions.add(last);
    return new Transition(state, actions);
  }

  private static Transition refuse(ChannelState state, Refuse refusal) {
    return Transition.refuse(state, refusal);
  }
}
