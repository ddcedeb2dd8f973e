package io.rubinbft.net.shm;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a shared-memory verbs device behaves.
 *
 * @param root the directory every process on the host that wants to talk opens; tmpfs (e.g. {@code
 *     /dev/shm/rubin}) keeps the mapped files in memory
 * @param receiverNotReadyRetries how many progress passes a send may find no posted receive before
 *     the queue pair fails with {@code RECEIVER_NOT_READY}; a pass is one {@code postSend} or one
 *     poll of a completion queue the pair reports to (RC's {@code rnr_retry}, counted in passes
 *     instead of timer ticks so that a run is repeatable)
 * @param livenessCheckInterval how often {@code pollConnectionEvents} asks the operating system
 *     whether the processes at the other ends are still alive
 * @param listenBacklog connection requests a listener holds before it is polled
 */
public record ShmOptions(
    Path root, int receiverNotReadyRetries, Duration livenessCheckInterval, int listenBacklog) {

  /** The tmpfs directory used when none is configured. */
  public static final Path DEFAULT_ROOT = Path.of("/dev/shm/rubin-shm");

  /** Most connection requests one listener can hold: its inbox is allocated up front. */
  public static final int MAX_LISTEN_BACKLOG = 1024;

  public ShmOptions {
    if (receiverNotReadyRetries < 0) {
      throw new IllegalArgumentException(
          "receiver-not-ready retries is " + receiverNotReadyRetries + " but must be >= 0");
    }
    if (livenessCheckInterval.isNegative()) {
      throw new IllegalArgumentException(
          "liveness check interval is " + livenessCheckInterval + " but must not be negative");
    }
    if (listenBacklog < 1 || listenBacklog > MAX_LISTEN_BACKLOG) {
      throw new IllegalArgumentException(
          "listen backlog is " + listenBacklog + " but must be in 1.." + MAX_LISTEN_BACKLOG);
    }
  }

  /**
   * Defaults under {@code root}: a million passes before RNR, liveness every 100 ms, 64 backlog.
   */
  public static ShmOptions defaults(Path root) {
    return new ShmOptions(root, 1 << 20, Duration.ofMillis(100), 64);
  }

  /** The same options with another receiver-not-ready retry limit. */
  public ShmOptions withReceiverNotReadyRetries(int retries) {
    return new ShmOptions(root, retries, livenessCheckInterval, listenBacklog);
  }

  /** The same options with another interval between liveness probes of the peers' processes. */
  public ShmOptions withLivenessCheckInterval(Duration interval) {
    return new ShmOptions(root, receiverNotReadyRetries, interval, listenBacklog);
  }
}
