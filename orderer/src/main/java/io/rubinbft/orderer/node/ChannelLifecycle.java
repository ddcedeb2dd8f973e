package io.rubinbft.orderer.node;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.node.lifecycle.ChannelAction;
import io.rubinbft.orderer.node.lifecycle.ChannelAction.Refuse;
import io.rubinbft.orderer.node.lifecycle.ChannelEvent;
import io.rubinbft.orderer.node.lifecycle.ChannelState;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Absent;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Joining;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Stopped;
import io.rubinbft.orderer.node.lifecycle.ChannelState.Switching;
import io.rubinbft.orderer.node.lifecycle.Transition;
import io.rubinbft.orderer.node.lifecycle.Transitions;
import io.rubinbft.orderer.onboarding.CatchUp;
import io.rubinbft.orderer.participation.ParticipationException;
import io.rubinbft.orderer.participation.ParticipationException.Reason;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle thread: the one thread that changes the node's channels. Requests of the
 * participation API, news from the channels' replicas, followers, onboardings and catch-ups, and
 * timers all become {@link ChannelEvent}s it handles one at a time: {@link Transitions#next}
 * decides, this class carries out the actions (on {@link ChannelStarts}) and publishes a new {@link
 * ChannelSnapshot} whenever a channel reaches a state others may see.
 *
 * <p>Its queue holds at most one request per participation API thread (each waits for its answer),
 * one piece of news per handle transition (a handle reports each once, or, for a stalled view
 * change, once per several view-change timeouts) and one timer per restarting channel. Blocking
 * work that is not a start (asking orderers for their newest blocks, pulling for a catch-up) runs
 * as one-shot {@link Worker}s that report back. This thread keeps them per channel and stops them
 * (each within {@link Worker#DEFAULT_STOP_DEADLINE}) before a removed channel's ledger is deleted
 * and when the node stops, so that none writes to a ledger that is gone or closed.
 */
final class ChannelLifecycle implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelLifecycle.class);

  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          task -> Thread.ofPlatform().name("channel-lifecycle").daemon().unstarted(task));

  private final ChannelStarts starts;

  // Read and written on the lifecycle thread only.
  private final TreeMap<String, ChannelEntry> entries = new TreeMap<>();
  private final ChannelTasks tasks = new ChannelTasks();
  private long tags;

  private volatile ChannelSnapshot snapshot = ChannelSnapshot.EMPTY;

  ChannelLifecycle(ChannelStarts starts) {
    this.starts = starts;
  }

  /** The channels as of the last published transition. */
  ChannelSnapshot snapshot() {
    return snapshot;
  }

  /**
   * Handles {@code event} (made on the lifecycle thread, so that the facts it holds are current)
   * for channel {@code name} and waits until every transition it leads to is done.
   *
   * @param joinBlock the join block's bytes, for a join
   * @throws ParticipationException with the refusal the transitions answered
   */
  void request(
      String name, Function<ChannelStarts, ChannelEvent> event, byte @Nullable [] joinBlock)
      throws ParticipationException {
    Future<Optional<Refuse>> answer;
    try {
      answer = thread.submit(() -> handle(name, event.apply(starts), joinBlock));
    } catch (RejectedExecutionException e) {
      throw new ParticipationException(Reason.INTERNAL, "the node is stopping");
    }
    Optional<Refuse> refused;
    try {
      refused = answer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ParticipationException(Reason.INTERNAL, "interrupted while waiting");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new ParticipationException(
          Reason.INTERNAL, Objects.toString(cause.getMessage(), cause.toString()));
    }
    if (refused.isPresent()) {
      throw new ParticipationException(refused.get().reason(), refused.get().message());
    }
  }

  /**
   * News for channel {@code name} from the handle (or the joining) {@code tag} names; dropped when
   * the channel moved on meanwhile. Never blocks.
   */
  void tell(String name, long tag, Function<ChannelEntry, ChannelEvent> news) {
    try {
      thread.execute(() -> deliver(name, tag, news));
    } catch (RejectedExecutionException e) {
      LOG.debug("channel {}: news after the node stopped dropped", name);
    }
  }

  private void deliver(String name, long tag, Function<ChannelEntry, ChannelEvent> news) {
    ChannelEntry entry = entries.get(name);
    if (entry == null || (entry.handleTag() != tag && entry.joinTag() != tag)) {
      return; // removed, or moved on, meanwhile
    }
    try {
      handle(name, news.apply(entry), null);
    } catch (RuntimeException e) {
      LOG.error("channel {}: handling news failed", name, e);
    }
  }

  /** Runs {@code event}'s transition, and those of the starts it leads to, for {@code name}. */
  private Optional<Refuse> handle(String name, ChannelEvent first, byte @Nullable [] joinBlock) {
    Optional<Refuse> refusal = Optional.empty();
    @Nullable ChannelEvent event = first;
    while (event != null) {
      ChannelEntry entry =
          entries.getOrDefault(name, new ChannelEntry(new Absent(), null, -1, ++tags, null));
      Transition transition = Transitions.next(entry.state(), event);
      if (!transition.state().equals(entry.state())) {
        LOG.info("channel {}: {} -> {} on {}", name, entry.state(), transition.state(), event);
      }
      entry = entry.withState(transition.state());
      if (transition.state() instanceof Absent) {
        entries.remove(name);
        publish(); // gone for readers before it is closed and deleted
      } else {
        entries.put(name, entry);
      }
      event = null;
      for (ChannelAction action : transition.actions()) {
        if (action instanceof Refuse refuse) {
          refusal = Optional.of(refuse);
        } else {
          event = perform(name, entry, action, joinBlock);
          entry = entries.getOrDefault(name, entry);
        }
      }
      if (visible(transition.state())) {
        publish();
      }
    }
    return refusal;
  }

  /** Carries out {@code action}; the event it answers, if it is a start. */
  private @Nullable ChannelEvent perform(
      String name, ChannelEntry entry, ChannelAction action, byte @Nullable [] joinBlock) {
    return switch (action) {
      case ChannelAction.CreateLedgerAndServe create ->
          start(name, news -> starts.createAndServe(name, Objects.requireNonNull(joinBlock), news));
      case ChannelAction.SaveJoinBlockAndOnboard onboard -> {
        byte[] block = Objects.requireNonNull(joinBlock);
        yield start(
            name,
            news ->
                new ChannelStarts.Running(
                    starts.saveAndOnboard(name, block, news), starts.relationIn(block), null));
      }
      case ChannelAction.ResumeOnboarding resume ->
          start(
              name,
              news ->
                  new ChannelStarts.Running(
                      starts.resumeOnboarding(name, news),
                      starts.relationIn(
                          starts.node().onboarding().pendingJoins().read(name).orElseThrow()),
                      null));
      case ChannelAction.Serve serve ->
          start(name, news -> starts.serve(ledgerOf(name, entry), news));
      case ChannelAction.StartFollower follow ->
          start(name, news -> starts.startFollower(ledgerOf(name, entry), news));
      case ChannelAction.StartReplica replica ->
          start(name, news -> starts.startReplica(ledgerOf(name, entry), news));
      case ChannelAction.Close close -> {
        closeQuietly(entry.handle());
        yield null;
      }
      case ChannelAction.Discard discard -> {
        tasks.stop(name);
        starts.discard(name);
        yield null;
      }
      case ChannelAction.AskForNewerConfig ask -> {
        askForNewerConfig(name, entry, ask);
        yield null;
      }
      case ChannelAction.StartCatchUp catchUp -> startCatchUp(name, entry, catchUp.why());
      case ChannelAction.RestartAfter restart -> {
        restartAfter(name, entry.handleTag(), restart);
        yield null;
      }
      case ChannelAction.KeepLedgerReadable keep -> {
        keepLedgerReadable(name, entry);
        yield null;
      }
      // Refusals are answers, and an update is ordered by the caller on the snapshot's runtime.
      case Refuse refuse -> null;
      case ChannelAction.OrderUpdate update -> null;
    };
  }

  /** Tells the restarting channel, after the pause, that it is time to serve it again. */
  private void restartAfter(String name, long tag, ChannelAction.RestartAfter restart) {
    // deliver() logs what fails; nothing waits for the timer's future.
    var _ =
        thread.schedule(
            () -> deliver(name, tag, e -> new ChannelEvent.RestartDue()),
            restart.pause().toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /** Keeps the stopped channel's ledger served to Deliver, as far as its configs can be read. */
  private void keepLedgerReadable(String name, ChannelEntry entry) {
    Stopped stopped = (Stopped) entry.state();
    ChannelLedger ledger = ledgerOf(name, entry);
    entries.put(
        name,
        entry.withHandle(
            starts.stopped(ledger, stopped.relation(), stopped.reason()), ++tags, ledger));
  }

  /** What a start does: the handle it started, or why it could not. */
  @FunctionalInterface
  private interface Start {
    ChannelStarts.Running start(ChannelNews news) throws InvalidConfigException;
  }

  /**
   * Starts a channel's handle, tagged so its news reach the lifecycle thread only while it is the
   * channel's; answers {@link ChannelEvent.Started} or {@link ChannelEvent.StartFailed}.
   */
  private ChannelEvent start(String name, Start start) {
    long tag = ++tags;
    try {
      ChannelStarts.Running running = start.start(event -> tell(name, tag, e -> event));
      ChannelEntry entry = Objects.requireNonNull(entries.get(name));
      entries.put(name, entry.withHandle(running.handle(), tag, running.ledger()));
      return new ChannelEvent.Started(running.relation());
    } catch (InvalidConfigException | RuntimeException e) {
      LOG.error("channel {}: cannot start it ({})", name, entries.get(name), e);
      // A RuntimeException may have no message; the reason then names the exception.
      return new ChannelEvent.StartFailed(
          Objects.toString(e.getMessage(), e.toString()), e instanceof InvalidConfigException);
    }
  }

  /**
   * After the grace, asks the channel's orderers for their newest config block, off this thread;
   * tells when one claims a config block the ledger lacks.
   */
  private void askForNewerConfig(
      String name, ChannelEntry entry, ChannelAction.AskForNewerConfig ask) {
    ChannelLedger ledger = ledgerOf(name, entry);
    long joinTag = entry.joinTag();
    tasks.start(
        name,
        Worker.named("catch-up-probe-" + name)
            .virtual()
            .unstarted(
                self -> {
                  try {
                    Thread.sleep(ask.grace());
                    if (starts.newerConfigClaimed(ledger)) {
                      tell(
                          name,
                          joinTag,
                          e ->
                              new ChannelEvent.NewerConfigClaimed(
                                  ask.why(),
                                  e.runtime().map(ChannelStarts::stillBehind).orElse(false)));
                    } else {
                      LOG.info(
                          "channel {}: {}, but no orderer claims a config block newer than block {}:"
                              + " not catching up",
                          name,
                          ask.why(),
                          ledger.height() - 1);
                    }
                  } catch (InterruptedException e) {
                    LOG.info("channel {}: catch-up ({}) ended early", name, ask.why());
                  } catch (InvalidConfigException | RuntimeException e) {
                    failed(self, name, ask.why(), e);
                  }
                }));
  }

  /**
   * Pulls up to the newest config block the orderers claim, off this thread, and tells when done; a
   * catch-up that cannot even start is done at once (the channel is served again as it is).
   */
  private @Nullable ChannelEvent startCatchUp(String name, ChannelEntry entry, String why) {
    ChannelLedger ledger = ledgerOf(name, entry);
    CatchUp catchUp;
    try {
      catchUp = starts.catchUp(ledger);
    } catch (InvalidConfigException | RuntimeException e) {
      LOG.error("channel {}: catch-up ({}) failed", name, why, e);
      return new ChannelEvent.CaughtUp();
    }
    long tag = ++tags;
    entries.put(name, entry.withHandle(catchUp, tag, ledger));
    LOG.info("channel {}: catching up by pulling blocks: {}", name, why);
    tasks.start(
        name,
        Worker.named("catch-up-" + name)
            .virtual()
            // Not interrupted: an interrupt closes the ledger's file channels under an append.
            .notInterrupted()
            .wakeWith(catchUp::close)
            .unstarted(
                self -> {
                  try {
                    LOG.info(
                        "channel {}: caught up to config block {}",
                        name,
                        catchUp.toNewestConfigBlock());
                  } catch (InterruptedException e) {
                    LOG.info("channel {}: catch-up ({}) ended early", name, why);
                  } catch (RuntimeException e) {
                    failed(self, name, why, e);
                  } finally {
                    tell(name, tag, e -> new ChannelEvent.CaughtUp());
                  }
                }));
    return null;
  }

  /** A task's failure, logged unless the task was being stopped (its ledger or pull closed). */
  private static void failed(Worker task, String name, String why, Exception e) {
    if (task.stopRequested()) {
      LOG.info("channel {}: catch-up ({}) stopped: {}", name, why, e.toString());
    } else {
      LOG.error("channel {}: catch-up ({}) failed", name, why, e);
    }
  }

  private ChannelLedger ledgerOf(String name, ChannelEntry entry) {
    return entry.ledger() != null ? entry.ledger() : starts.ledger(name);
  }

  /** Whether readers may see a channel in {@code state}: all but the moments a start takes. */
  private static boolean visible(ChannelState state) {
    return !(state instanceof Joining) && !(state instanceof Switching);
  }

  private void publish() {
    snapshot = new ChannelSnapshot(entries);
  }

  /** Closes every channel's handle and stops the thread; news after it is dropped. */
  @Override
  public void close() {
    try {
      thread
          .submit(
              () -> {
                entries.values().forEach(entry -> closeQuietly(entry.handle()));
                tasks.stopAll();
                entries.clear();
                publish();
              })
          .get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | RejectedExecutionException e) {
      LOG.warn("closing the channels failed: {}", e.toString());
    }
    thread.shutdownNow();
  }

  private static void closeQuietly(@Nullable Object handle) {
    if (handle instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("closing {} failed: {}", handle, e.toString());
      }
    }
  }
}
