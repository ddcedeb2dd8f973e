package io.rubinbft.bft.host;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.WalRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Hosts a replica across consensus epochs (bft-core README, "Event/effect contract" and "Epochs"):
 * the one effects loop that the orderer runs in production and the simulator and explorer run in
 * tests. Events are stepped in batches: {@link #step} sends a step's send-now messages, hands its
 * archive reads to the store and appends its WAL records at once; {@link #finish} makes the batch's
 * records durable with one sync (none for a batch whose only records are stable checkpoints: they
 * ride on the next sync), then sends the votes that waited for them and executes the decisions in
 * order. When a decision ends the epoch, nothing after it is executed; the host takes the old
 * replica's handover, waits until the application holds the anchor durably, closes the old WAL and
 * starts the next epoch's replica, or stops ordering when this node is not a member of it.
 *
 * <p>It also watches for a view change that stalls ({@link StalledViewChange}): the trigger of a
 * catch-up when this node may be behind an epoch end. Single-threaded: one thread drives it.
 *
 * @param <E> the environment's epoch
 */
public final class EpochHost<E extends HostedEpoch> {

  /** The epoch switch a batch ended with. */
  public record Switch<E>(E ended, Decision anchor, Optional<E> next) {}

  /**
   * What one batch did.
   *
   * @param stepped each step's effects, in order
   * @param executed the decisions executed, in order
   * @param switched the epoch switch at its end, if a decision ended the epoch
   * @param viewChangeStalled whether a tick found the view change stalled past its patience: the
   *     node may be behind an epoch end and should ask its peers' ledgers
   */
  public record Batch<E>(
      List<Effects> stepped,
      List<Decision> executed,
      Optional<Switch<E>> switched,
      boolean viewChangeStalled) {}

  private final HostApplication application;
  private final EpochStarter<E> starter;
  private final List<Effects> stepped = new ArrayList<>();
  private E epoch;
  private boolean member = true;
  private StalledViewChange stall;
  private long deliveredAtLastTick = -1;
  private boolean stalled;

  /** The decision of this batch that ends the epoch, once a step yielded it. */
  private @Nullable Decision ending;

  public EpochHost(E first, HostApplication application, EpochStarter<E> starter) {
    this.epoch = first;
    this.application = application;
    this.starter = starter;
    this.stall = stallWatch(first);
  }

  /** The epoch hosted now; the last one once this node left the members. */
  public E epoch() {
    return epoch;
  }

  /** False once an epoch started without this node: it steps nothing more. */
  public boolean member() {
    return member;
  }

  /**
   * Steps the replica: sends its send-now messages, hands its archive reads to the store, appends
   * its WAL records (durable at {@link #finish}) and tells the application of its decisions up to
   * the one that ends the epoch.
   *
   * @return the step's effects (the caller reads its rejections)
   * @throws IllegalStateException from the replica when an internal invariant broke: stop the host
   */
  public Effects step(Event event) {
    if (!member) {
      throw new IllegalStateException("not a member of epoch " + epoch.number() + ": no replica");
    }
    Effects effects = epoch.replica().step(event);
    epoch.send(effects.sendNow());
    epoch.serve(effects.archiveReads());
    epoch.append(effects.persist());
    stepped.add(effects);
    for (Decision decision : effects.decisions()) {
      if (ending != null) {
        break;
      }
      application.decided(decision);
      if (epoch.endsEpoch(decision)) {
        ending = decision;
      }
    }
    if (event instanceof Event.Tick && stall.onTick(progressing(epoch.replica().status()))) {
      stalled = true;
    }
    return effects;
  }

  /**
   * Completes the batch: one sync when any step appended records other than stable checkpoints or
   * has votes or decisions waiting ({@link #waitsForSync}), then each step's send-after-persist
   * messages and its decisions executed in order up to the one that ends the epoch, then the epoch
   * switch at that one.
   *
   * @throws InterruptedException when stopped while waiting for the anchor to be durable
   */
  public Batch<E> finish() throws InterruptedException {
    List<Effects> batch = List.copyOf(stepped);
    stepped.clear();
    if (batch.stream().anyMatch(EpochHost::waitsForSync)) {
      epoch.sync();
    }
    List<Decision> executed = new ArrayList<>();
    boolean ended = false;
    for (Effects effects : batch) {
      epoch.send(effects.sendAfterPersist());
      for (int i = 0; i < effects.decisions().size() && !ended; i++) {
        Decision decision = effects.decisions().get(i);
        application.execute(decision);
        executed.add(decision);
        ended = ending != null && decision.sequence() == ending.sequence();
      }
    }
    boolean wasStalled = stalled;
    stalled = false;
    Optional<Switch<E>> switched = Optional.empty();
    if (ending != null) {
      Decision anchor = ending;
      ending = null;
      switched = Optional.of(switchAt(anchor));
    }
    return new Batch<>(batch, List.copyOf(executed), switched, wasStalled);
  }

  /**
   * Whether a step's effects need its records durable before the batch completes: a vote or a
   * decision waits for them, or a record other than a stable checkpoint was appended. A stable
   * checkpoint alone waits for nothing: it lets the log be cut, which happens only after a later
   * sync has made it durable, and lost in a crash it leaves the previous one stable (the peers'
   * checkpoints, retransmitted, make it stable again). So it becomes durable with the next sync of
   * the WAL, which is sequential, instead of costing a sync of its own after every checkpoint.
   */
  private static boolean waitsForSync(Effects effects) {
    return !effects.sendAfterPersist().isEmpty()
        || !effects.decisions().isEmpty()
        || effects.persist().stream()
            .anyMatch(record -> !(record instanceof WalRecord.StableCheckpoint));
  }

  /** Steps one event and completes its batch at once (a host that syncs every step). */
  public Batch<E> stepAndFinish(Event event) throws InterruptedException {
    step(event);
    return finish();
  }

  /** Stops hosting: closes the epoch's WAL (a member's). */
  public void close() {
    if (member) {
      epoch.close();
    }
  }

  private Switch<E> switchAt(Decision anchor) throws InterruptedException {
    E ended = epoch;
    Handover handover = ended.replica().handover(anchor.sequence());
    application.awaitDurable(anchor);
    ended.close();
    Optional<E> next = starter.start(ended, anchor, handover);
    if (next.isPresent()) {
      epoch = next.get();
      stall = stallWatch(epoch);
    } else {
      member = false;
    }
    return new Switch<>(ended, anchor, next);
  }

  /**
   * Whether the replica moved on since the last tick: its view is installed and not complained
   * about, or it delivered decisions (a replica catching up by state transfer complains about
   * requests it cannot decide yet, and must not be stopped for a catch-up while it delivers).
   */
  private boolean progressing(ReplicaStatus status) {
    boolean delivered = status.lastDelivered() > deliveredAtLastTick;
    deliveredAtLastTick = status.lastDelivered();
    return status.progressing() || delivered;
  }

  private static StalledViewChange stallWatch(HostedEpoch epoch) {
    ReplicaConfig config = epoch.replica().config();
    return new StalledViewChange(config.viewChangeTimeoutTicks());
  }
}
