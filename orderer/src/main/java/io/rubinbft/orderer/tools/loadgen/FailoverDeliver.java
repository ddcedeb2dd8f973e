package io.rubinbft.orderer.tools.loadgen;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.jspecify.annotations.Nullable;

/**
 * Follows a channel's chain through Deliver from a height on, as a Fabric peer's block deliverer
 * does: when the orderer it reads from ends the stream (it died, or answered a status before the
 * open-ended stop), or stays silent while blocks are expected ({@link #moveOnIfSilentFor}: a
 * stopped or withholding orderer ends nothing, as Fabric's BFT deliverer's censorship check
 * assumes), it moves to the next orderer and asks again from the first block it has not seen, after
 * a back-off that grows while no orderer serves it. Blocks seen already (an orderer resending) are
 * dropped; a gap is passed on, so the consumer's chain check reports it.
 */
final class FailoverDeliver {

  private static final long MIN_BACKOFF_MILLIS = 100;
  private static final long MAX_BACKOFF_MILLIS = 2_000;

  private final List<ManagedChannel> orderers;
  private final LongFunction<Envelope> seekFrom;
  private final DeliverStream.BlockConsumer consumer;

  @GuardedBy("this")
  private @Nullable DeliverStream current;

  @GuardedBy("this")
  private int source;

  @GuardedBy("this")
  private long next;

  @GuardedBy("this")
  private long backoffMillis = MIN_BACKOFF_MILLIS;

  @GuardedBy("this")
  private long failovers;

  // When the current stream was opened or last brought a new block.
  @GuardedBy("this")
  private long lastProgressNanos;

  @GuardedBy("this")
  private boolean closed;

  /**
   * @param orderers where to read from, the first first
   * @param seekFrom the signed seek for "from this block on, blocking"
   * @param height the first block to deliver
   */
  FailoverDeliver(
      List<ManagedChannel> orderers,
      LongFunction<Envelope> seekFrom,
      DeliverStream.BlockConsumer consumer,
      long height) {
    this.orderers = List.copyOf(orderers);
    this.seekFrom = seekFrom;
    this.consumer = consumer;
    this.next = height;
  }

  synchronized void start() {
    open();
  }

  /** How many times reading moved to another orderer. */
  synchronized long failovers() {
    return failovers;
  }

  /**
   * Moves to the next orderer if the current one brought no new block for {@code silence}: called
   * while the caller waits for blocks it knows were ordered (transactions a quorum accepted).
   */
  synchronized void moveOnIfSilentFor(Duration silence) {
    if (!closed && current != null && System.nanoTime() - lastProgressNanos > silence.toNanos()) {
      lastProgressNanos = System.nanoTime();
      current.cancel(); // its end moves reading on, as any other end does
    }
  }

  synchronized void close() {
    closed = true;
    if (current != null) {
      current.cancel();
    }
  }

  @GuardedBy("this")
  private void open() {
    DeliverStream stream =
        DeliverStream.open(orderers.get(source), seekFrom.apply(next), this::onBlock);
    current = stream;
    lastProgressNanos = System.nanoTime();
    // ended() only updates this object's fields and starts a virtual thread: nothing in it fails
    // that the returned future would need to report.
    var _ = stream.finished().whenComplete((status, error) -> ended(stream));
  }

  private synchronized void onBlock(Block block, long receivedNanos) {
    long number = block.getHeader().getNumber();
    if (number < next) {
      return;
    }
    next = number + 1;
    lastProgressNanos = System.nanoTime();
    backoffMillis = MIN_BACKOFF_MILLIS;
    consumer.accept(block, receivedNanos);
  }

  private void ended(DeliverStream stream) {
    long wait;
    synchronized (this) {
      if (closed || stream != current) {
        return;
      }
      source = (source + 1) % orderers.size();
      failovers++;
      wait = backoffMillis;
      backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
    }
    Thread.ofVirtual().start(() -> reopenAfter(wait, stream));
  }

  private void reopenAfter(long millis, DeliverStream ended) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    synchronized (this) {
      if (!closed && current == ended) {
        open();
      }
    }
  }
}
