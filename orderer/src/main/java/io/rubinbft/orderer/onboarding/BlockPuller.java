package io.rubinbft.orderer.onboarding;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.client.BlockStream;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.consensus.ConfigState;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls a channel's blocks from the Deliver services of its orderers, one source at a time, and
 * hands them in order to a {@link BlockSink}. A source that fails, ends its answer early, sends a
 * block out of order, sends a block the sink discards, or is slower than {@link
 * PullLimits#blockTimeout()} per block is left alone for a backoff, and the next source is asked
 * from the first block still missing. At most one block is in memory between the source and the
 * sink ({@link BlockStream}). Requests are signed by this node's identity.
 *
 * <p>One thread pulls; {@link #close} may come from any thread and ends a pull in progress.
 */
public final class BlockPuller implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BlockPuller.class);

  private final String channelId;
  private final Supplier<ConfigState> config;
  private final SourcePool sources;
  private final EnvelopeFactory requests;
  private final ByteString tlsCertificateHash;
  private final PullLimits limits;
  private final Refusals refusals = new Refusals();
  private volatile boolean closed;
  private volatile BlockStream current;

  /** The distinct sources whose block at one height the sink refused. */
  private static final class Refusals {
    private long height = -1;
    private final Set<HostPort> sources = new HashSet<>();

    void add(long at, HostPort source) {
      if (at != height) {
        clear();
        height = at;
      }
      sources.add(source);
    }

    void clear() {
      height = -1;
      sources.clear();
    }

    int refusedBy() {
      return sources.size();
    }
  }

  /**
   * @param config the config in force at the end of the chain pulled so far: its endpoints and TLS
   *     CAs are used, and followed when a pulled config block changes them
   */
  public BlockPuller(String channelId, Supplier<ConfigState> config, PullContext context) {
    this.channelId = channelId;
    this.config = config;
    this.sources = new SourcePool(context);
    this.requests = new EnvelopeFactory(context.identity(), context.clock());
    this.tlsCertificateHash = context.tls().map(NodeTls::certificateHash).orElse(ByteString.EMPTY);
    this.limits = context.limits();
  }

  /**
   * Pulls blocks {@code first..last} into {@code sink}, until it kept them all, the puller is
   * closed, or more than f sources (f of the config in force; all of them if there are fewer) sent
   * a next block the sink refused: then {@link PullOutcome#PREFIX_REFUSED}.
   */
  public PullOutcome pullRange(long first, long last, BlockSink sink) throws InterruptedException {
    long next = first;
    while (next <= last && !closed) {
      next = pullFromOneSource(next, Optional.of(last), sink);
      if (!closed && refusals.refusedBy() > refusalThreshold()) {
        return PullOutcome.PREFIX_REFUSED;
      }
    }
    return next > last ? PullOutcome.COMPLETE : PullOutcome.CLOSED;
  }

  /**
   * Pulls every block from {@code first} on into {@code sink}, until the puller is closed. A chain
   * that more than f sources refuse to extend is reported once per height and pulling goes on.
   */
  public void follow(long first, BlockSink sink) throws InterruptedException {
    long next = first;
    long reported = -1;
    while (!closed) {
      next = pullFromOneSource(next, Optional.empty(), sink);
      if (!closed && refusals.refusedBy() > refusalThreshold() && reported != next) {
        reported = next;
        LOG.error(
            "channel {}: {} sources sent a block {} that does not extend this node's chain",
            channelId,
            refusals.refusedBy(),
            next);
      }
    }
  }

  /**
   * The newest block of every source that answers within {@link PullLimits#blockTimeout()}, as it
   * claims it: nothing here is checked yet.
   */
  public List<Block> newestBlocks() throws InterruptedException {
    sources.use(config.get());
    List<Block> newest = new ArrayList<>();
    for (SourcePool.Source source : sources.all()) {
      try {
        newest.addAll(
            BlockStream.readAll(
                source.channel(),
                requests.seek(channelId, SeekInfos.newest(), tlsCertificateHash),
                1,
                limits.blockTimeout(),
                "the newest block of channel '" + channelId + "' from " + source));
      } catch (IllegalStateException e) {
        sources.failed(source, e.getMessage());
      }
    }
    return List.copyOf(newest);
  }

  /** Stops pulling: a pull in progress returns soon after. */
  @Override
  public void close() {
    closed = true;
    BlockStream stream = current;
    if (stream != null) {
      stream.close();
    }
    sources.close();
  }

  /**
   * Asks the next source for blocks from {@code next} (to {@code last}, or on without end) and
   * takes them until the source fails or the range is done.
   *
   * @return the first block still missing
   */
  private long pullFromOneSource(long next, Optional<Long> last, BlockSink sink)
      throws InterruptedException {
    sources.use(config.get());
    Optional<SourcePool.Source> picked = sources.next();
    if (picked.isEmpty()) {
      if (!closed) {
        LOG.warn("channel {}: no orderer endpoint to pull from", channelId);
        Thread.sleep(limits.maxBackoff());
      }
      return next;
    }
    SourcePool.Source source = picked.get();
    SeekInfo seek = last.map(l -> SeekInfos.range(next, l)).orElse(SeekInfos.from(next));
    Envelope request = requests.seek(channelId, seek, tlsCertificateHash);
    try (BlockStream stream = BlockStream.open(source.channel(), request)) {
      current = stream;
      if (closed) {
        return next;
      }
      return take(stream, source, next, last, sink);
    } finally {
      current = null;
    }
  }

  private long take(
      BlockStream stream, SourcePool.Source source, long first, Optional<Long> last, BlockSink sink)
      throws InterruptedException {
    long next = first;
    Duration timeout = last.isPresent() ? limits.blockTimeout() : limits.idleTimeout();
    while (!closed) {
      switch (stream.next(timeout)) {
        case BlockStream.Next.Received received -> {
          Optional<String> rejected = check(received.block(), next, sink, source);
          if (rejected.isPresent()) {
            sources.failed(source, rejected.get());
            return next;
          }
          refusals.clear();
          sources.served(source);
          next++;
        }
        case BlockStream.Next.Ended ended -> {
          if (last.isEmpty() || next <= last.get()) {
            sources.failed(source, ended(ended, next, last));
          }
          return next;
        }
        case BlockStream.Next.Failed failed -> {
          if (!closed) {
            sources.failed(source, failed.reason());
          }
          return next;
        }
        case BlockStream.Next.TimedOut timedOut -> {
          if (last.isPresent()) {
            sources.failed(source, "no block " + next + " within " + timedOut.waited());
          }
          return next;
        }
      }
    }
    return next;
  }

  private Optional<String> check(
      Block block, long expected, BlockSink sink, SourcePool.Source source) {
    long number = block.getHeader().getNumber();
    if (number != expected) {
      return Optional.of(
          "sent block "
              + Long.toUnsignedString(number)
              + " but block "
              + expected
              + " was expected");
    }
    Optional<String> refused = sink.accept(block);
    refused.ifPresent(reason -> refusals.add(expected, source.endpoint()));
    return refused.map(reason -> "block " + expected + " discarded: " + reason);
  }

  /**
   * More than f of the config in force, but never more than there are sources; without sources
   * (closed, or no endpoint but this node's) nothing was refused.
   */
  private int refusalThreshold() {
    int f = config.get().config().consenters().quorums().f();
    return Math.min(f, Math.max(0, sources.all().size() - 1));
  }

  private static String ended(BlockStream.Next.Ended ended, long next, Optional<Long> last) {
    return "answered "
        + ended.status()
        + " before block "
        + next
        + last.map(l -> " (asked for blocks up to " + l + ")").orElse("");
  }
}
