package io.rubinbft.orderer.concurrent;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A named thread that a component of the node owns for as long as it is open: the one way the
 * node's long-lived workers (a channel's replica, ledger writer and archive reader, the cluster
 * network, a follower's or an onboarding's pulling, the Broadcast throttle's refills, ...) are
 * started and stopped.
 *
 * <p>Its body runs once, usually a loop that blocks (a queue poll, a selector, a monitor wait) and
 * ends when {@link #stopRequested} turns true or the thread is interrupted. A body that ends by
 * throwing while no stop was asked for has failed: the throwable is logged, kept for {@link
 * #failure} (which the owner turns into its {@code /healthz} reason) and handed to the failure
 * handler, on the worker's thread as it ends. One thrown after a stop was asked for (a queue or
 * socket closed under it) is not a failure.
 *
 * <p>{@link #close} asks the body to stop (the flag, then the owner's wake-up, then an interrupt
 * unless the owner turned it off) and waits for the thread to end, up to an explicit deadline.
 *
 * <p>Agrona's {@code AgentRunner} is not used: its duty cycle calls a non-blocking {@code doWork}
 * under an idle strategy, while these loops block on their own inputs, and its error handler goes
 * on with the next duty cycle where these workers must stop for good (a replica must not vote on
 * after a broken invariant).
 */
public final class Worker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  /** How long {@link #close} waits for the thread to end unless the owner says otherwise. */
  public static final Duration DEFAULT_STOP_DEADLINE = Duration.ofSeconds(10);

  /** What the worker's thread runs, once. */
  @FunctionalInterface
  public interface Body {

    /**
     * @param self the worker running this body, to ask {@link Worker#stopRequested}
     * @throws InterruptedException when interrupted: a stop, never a failure
     */
    void run(Worker self) throws InterruptedException;
  }

  /** Names a worker; see {@link #named}. */
  public static final class Builder {
    private final String name;
    private boolean virtual;
    private boolean interruptOnStop = true;
    private Runnable wake = () -> {};
    private Consumer<Throwable> onFailure = failure -> {};
    private Duration stopDeadline = DEFAULT_STOP_DEADLINE;
    private @Nullable WorkerGroup group;
    private String role = "";

    private Builder(String name) {
      this.name = Objects.requireNonNull(name);
    }

    /**
     * Runs the body on a virtual thread, for a body that spends its time waiting on other threads'
     * work rather than on the node's own CPU or disk.
     */
    public Builder virtual() {
      this.virtual = true;
      return this;
    }

    /**
     * Not interrupted on stop: for a body that writes files through NIO channels, which an
     * interrupt closes. It must then see {@link Worker#stopRequested} within the stop deadline.
     */
    public Builder notInterrupted() {
      this.interruptOnStop = false;
      return this;
    }

    /**
     * Run by {@link Worker#close} after the stop flag is set and before the interrupt, to end a
     * wait an interrupt does not end (a selector's select, closing what the body reads from).
     */
    public Builder wakeWith(Runnable wake) {
      this.wake = Objects.requireNonNull(wake);
      return this;
    }

    /** Told of a failure, on the worker's thread as it ends; must not block. */
    public Builder onFailure(Consumer<Throwable> onFailure) {
      this.onFailure = Objects.requireNonNull(onFailure);
      return this;
    }

    /**
     * Joins {@code group}, which reports this worker's failure as {@code "<role> stopped: ..."}
     * (e.g. role "ledger writer").
     */
    public Builder partOf(WorkerGroup group, String role) {
      this.group = Objects.requireNonNull(group);
      this.role = Objects.requireNonNull(role);
      return this;
    }

    /** How long {@link Worker#close} waits for the thread to end. */
    public Builder stopDeadline(Duration stopDeadline) {
      this.stopDeadline = Objects.requireNonNull(stopDeadline);
      return this;
    }

    /** A worker whose thread is started by {@link Worker#start}. */
    public Worker unstarted(Body body) {
      return new Worker(this, body);
    }

    /** A worker whose thread runs {@code body} from now on. */
    public Worker start(Body body) {
      Worker worker = unstarted(body);
      worker.start();
      return worker;
    }
  }

  private final String name;
  private final Body body;
  private final boolean interruptOnStop;
  private final Runnable wake;
  private final Consumer<Throwable> onFailure;
  private final Duration stopDeadline;
  private final Thread thread;
  private volatile boolean stopRequested;
  private volatile @Nullable Throwable failure;

  private Worker(Builder builder, Body body) {
    this.name = builder.name;
    this.body = Objects.requireNonNull(body);
    this.interruptOnStop = builder.interruptOnStop;
    this.wake = builder.wake;
    this.onFailure = builder.onFailure;
    this.stopDeadline = builder.stopDeadline;
    this.thread =
        builder.virtual
            ? Thread.ofVirtual().name(name).unstarted(this::runBody)
            : Thread.ofPlatform().name(name).daemon().unstarted(this::runBody);
    if (builder.group != null) {
      builder.group.join(this, builder.role);
    }
  }

  /** A worker whose thread is named {@code name}. */
  public static Builder named(String name) {
    return new Builder(name);
  }

  /** Starts the thread; once. */
  public void start() {
    thread.start();
  }

  /** The thread's name. */
  public String name() {
    return name;
  }

  /** True once {@link #close} was called: the body should end. */
  public boolean stopRequested() {
    return stopRequested;
  }

  /** What ended the body while no stop was asked for, if anything did. */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  /** True while the thread runs. */
  public boolean alive() {
    return thread.isAlive();
  }

  /** True when called on the worker's own thread. */
  public boolean isCurrentThread() {
    return Thread.currentThread() == thread;
  }

  /**
   * Asks the body to stop and waits until the thread has ended, at most the stop deadline. Called
   * on the worker's own thread (an owner closed from its body), it does not wait: the thread ends
   * when the body returns. A caller interrupted while waiting stops waiting and keeps its interrupt
   * status.
   *
   * @return false when the thread still runs at the deadline (logged)
   */
  public boolean stop() {
    stopRequested = true;
    wake.run();
    if (isCurrentThread()) {
      return true;
    }
    if (interruptOnStop) {
      thread.interrupt();
    }
    try {
      if (thread.getState() != Thread.State.NEW && !thread.join(stopDeadline)) {
        LOG.error("thread {} did not stop within {}", name, stopDeadline);
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !thread.isAlive();
    }
    return true;
  }

  /** {@link #stop}. */
  @Override
  public void close() {
    stop();
  }

  private void runBody() {
    try {
      body.run(this);
    } catch (InterruptedException e) {
      // a stop
    } catch (Throwable e) {
      if (stopRequested) {
        LOG.debug("thread {} ended while stopping: {}", name, e.toString());
        return;
      }
      // An Error too: the owner must learn that its thread is gone.
      LOG.error("thread {} stopped", name, e);
      failure = e;
      onFailure.accept(e);
    }
  }
}
