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
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls a channel's blocks from the Deliver services of its orderers and hands them in order to a
 * {@link BlockSink}. As Fabric's block puller does, every source is first asked for its height (its
 * newest block; {@link HeightProbe}, all at once) and blocks are pulled from one with the highest
 * ({@link SourceChoice}), up to the height it claimed; sources are asked again whenever a source
 * fails or a follower's source has nothing new while another is ahead. Claims are not trusted: a
 * source that fails to serve a height it claimed within {@link PullLimits#blockTimeout()}, ends its
 * answer early, or sends a block out of order or one the sink discards is left alone for a backoff
 * and distrusted (chosen only when no trusted source is ahead), and the next source is asked from
 * the first block still missing. At most one block is in memory between a source and the sink
 * ({@link BlockStream}). Requests are signed by this node's identity.
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
  private final PullStats stats = new PullStats();

  /** Endpoints that served blocks of, or had blocks refused by, the sink's chain this pull. */
  private final Set<HostPort> servedTheChain = new HashSet<>();

  private final Set<HostPort> refusedTheChain = new HashSet<>();
  private int roundsWithoutSource;
  private volatile boolean closed;
  private volatile @Nullable BlockStream current;

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

  /** What this puller has done so far, for the metrics. */
  public PullStats stats() {
    return stats;
  }

  /**
   * Pulls blocks {@code first..last} into {@code sink}, until it kept them all, the puller is
   * closed, or more than f sources (f of the config in force; all of them if there are fewer) sent
   * a next block the sink refused: then {@link PullOutcome#PREFIX_REFUSED}.
   */
  public PullOutcome pullRange(long first, long last, BlockSink sink) throws InterruptedException {
    return pull(first, last, sink, false);
  }

  /**
   * As {@link #pullRange}, but only while a trusted source claims the next block: when none does
   * (the sources that claimed more broke their claims, or no source claims more), {@link
   * PullOutcome#UNCLAIMED}. For a target that claims alone set, which a liar may have set beyond
   * the chain: the pull goes as far as correct sources serve blocks the sink keeps, and no further.
   */
  public PullOutcome pullWhileClaimed(long first, long last, BlockSink sink)
      throws InterruptedException {
    return pull(first, last, sink, true);
  }

  private PullOutcome pull(long first, long last, BlockSink sink, boolean whileClaimed)
      throws InterruptedException {
    servedTheChain.clear();
    refusedTheChain.clear();
    long next = first;
    while (next <= last && !closed) {
      OptionalLong pulled = pullFromOneSource(next, Optional.of(last), sink, whileClaimed);
      if (pulled.isEmpty()) {
        stats.pullingFrom(Optional.empty());
        return PullOutcome.UNCLAIMED;
      }
      next = pulled.getAsLong();
      if (!closed && refusals.refusedBy() > refusalThreshold()) {
        return PullOutcome.PREFIX_REFUSED;
      }
    }
    stats.pullingFrom(Optional.empty());
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
      next = pullFromOneSource(next, Optional.empty(), sink, false).orElseThrow();
      if (!closed && refusals.refusedBy() > refusalThreshold() && reported != next) {
        reported = next;
        LOG.error(
            "channel {}: {} sources sent a block {} that does not extend this node's chain",
            channelId,
            refusals.refusedBy(),
            next);
      }
    }
    stats.pullingFrom(Optional.empty());
  }

  /**
   * The newest block of every source that answers within {@link PullLimits#probeTimeout()}, as it
   * claims it: nothing here is checked yet.
   */
  public List<Block> newestBlocks() throws InterruptedException {
    sources.use(config.get());
    List<Block> newest = new ArrayList<>();
    for (HeightProbe.Answer answer : probe(sources.all())) {
      if (answer instanceof HeightProbe.Answer.Newest told) {
        newest.add(told.block());
      }
    }
    return List.copyOf(newest);
  }

  /**
   * The sink's chain was found not to be the channel's (the trust anchor refused it) and is
   * discarded: the sources that served its blocks are distrusted, and those whose blocks it
   * refused, which were right, are trusted again. Otherwise a source that made up a chain and
   * claims a high height would be chosen first again when pulling starts over.
   */
  public void chainDiscarded() {
    for (SourcePool.Source source : sources.all()) {
      if (servedTheChain.contains(source.endpoint())) {
        sources.lied(source, "served blocks of a chain the trust anchor refused");
      } else if (refusedTheChain.contains(source.endpoint())) {
        sources.keptClaim(source);
      }
    }
    servedTheChain.clear();
    refusedTheChain.clear();
    stats.distrusted(sources.distrusted());
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
   * Asks every source not left alone for its height, and the best of them for blocks from {@code
   * next} (to {@code last} or the height it claimed, whichever is lower; or on without end), and
   * takes them until the source fails, has no more, or (following) another source is ahead. With
   * {@code trustedOnly}, only a trusted source ahead is asked.
   *
   * @return the first block still missing; empty when {@code trustedOnly} and no trusted source
   *     claims block {@code next}
   */
  private OptionalLong pullFromOneSource(
      long next, Optional<Long> last, BlockSink sink, boolean trustedOnly)
      throws InterruptedException {
    sources.use(config.get());
    probe(sources.free());
    Optional<SourcePool.Source> picked =
        trustedOnly ? sources.bestTrusted(next) : sources.best(next, last.isEmpty());
    if (picked.isEmpty()) {
      stats.pullingFrom(Optional.empty());
      if (trustedOnly) {
        return OptionalLong.empty();
      }
      waitForASource(next);
      return OptionalLong.of(next);
    }
    SourcePool.Source source = picked.get();
    if (!stats.source().equals(Optional.of(source.endpoint()))) {
      LOG.info(
          "channel {}: pulling from {} from block {} on (it claims height {})",
          channelId,
          source,
          next,
          source.claimedHeight());
    }
    stats.pullingFrom(Optional.of(source.endpoint()));
    Optional<Long> stop = last.map(l -> Math.min(l, source.claimedHeight() - 1));
    SeekInfo seek = stop.map(s -> SeekInfos.range(next, s)).orElse(SeekInfos.from(next));
    Envelope request = requests.seek(channelId, seek, tlsCertificateHash);
    try (BlockStream stream = BlockStream.open(source.channel(), request)) {
      current = stream;
      if (closed) {
        return OptionalLong.of(next);
      }
      return OptionalLong.of(take(stream, source, next, stop, sink));
    } finally {
      current = null;
    }
  }

  /** No source qualifies: waits a little longer each round before the sources are asked again. */
  private void waitForASource(long next) throws InterruptedException {
    if (closed) {
      return;
    }
    roundsWithoutSource++;
    if (sources.all().isEmpty()) {
      LOG.warn("channel {}: no orderer endpoint to pull from", channelId);
    } else if (roundsWithoutSource == 1) {
      LOG.info("channel {}: no orderer is known to have block {} yet", channelId, next);
    }
    Thread.sleep(limits.backoff(roundsWithoutSource));
  }

  private long take(
      BlockStream stream, SourcePool.Source source, long first, Optional<Long> stop, BlockSink sink)
      throws InterruptedException {
    long next = first;
    int quietRounds = 0;
    while (!closed) {
      boolean promised = next < source.claimedHeight();
      Duration timeout = promised ? limits.blockTimeout() : limits.backoff(++quietRounds);
      switch (stream.next(timeout)) {
        case BlockStream.Next.Received received -> {
          Optional<Refusal> refused = check(received.block(), next, sink, source);
          if (refused.isPresent()) {
            stats.refused(refused.get().check());
            sources.lied(source, "block " + next + " discarded: " + refused.get().message());
            stats.distrusted(sources.distrusted());
            return next;
          }
          kept(source, ++next);
          quietRounds = 0;
          if (stop.isPresent() && next > stop.get()) {
            return next;
          }
        }
        case BlockStream.Next.Ended ended -> {
          boolean owed = stop.isPresent() ? next <= stop.get() : next < source.claimedHeight();
          if (owed) {
            sources.lied(source, ended(ended, next, stop));
            stats.distrusted(sources.distrusted());
          } else if (stop.isEmpty()) {
            sources.failed(source, ended(ended, next, stop));
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
          if (promised) {
            sources.lied(
                source,
                "claimed height "
                    + source.claimedHeight()
                    + " but sent no block "
                    + next
                    + " within "
                    + timedOut.waited());
            stats.distrusted(sources.distrusted());
            return next;
          }
          if (anotherIsAhead(next)) {
            return next;
          }
        }
      }
    }
    return next;
  }

  /** Block {@code next - 1} was kept; a source that served all it claimed is trusted again. */
  private void kept(SourcePool.Source source, long next) {
    refusals.clear();
    servedTheChain.add(source.endpoint());
    roundsWithoutSource = 0;
    sources.served(source);
    stats.kept();
    if (next >= source.claimedHeight()) {
      sources.keptClaim(source);
      stats.distrusted(sources.distrusted());
    }
  }

  /**
   * A follower's source has nothing new: are the sources asked again for their heights, is one of
   * them (the same one, whose stream may be stale) ahead of {@code next}?
   */
  private boolean anotherIsAhead(long next) throws InterruptedException {
    probe(sources.free());
    return sources.best(next, false).isPresent();
  }

  private List<HeightProbe.Answer> probe(List<SourcePool.Source> asked)
      throws InterruptedException {
    if (asked.isEmpty() || closed) {
      return List.of();
    }
    Envelope seek = requests.seek(channelId, SeekInfos.newest(), tlsCertificateHash);
    List<HeightProbe.Answer> answers = HeightProbe.ask(asked, seek, limits.probeTimeout());
    for (HeightProbe.Answer answer : answers) {
      switch (answer) {
        case HeightProbe.Answer.Newest told -> sources.claimed(told.source(), told.height());
        case HeightProbe.Answer.Silent silent -> {
          if (!closed) {
            sources.failed(silent.source(), silent.reason());
          }
        }
      }
    }
    return answers;
  }

  private Optional<Refusal> check(
      Block block, long expected, BlockSink sink, SourcePool.Source source) {
    long number = block.getHeader().getNumber();
    if (number != expected) {
      return Optional.of(
          new Refusal(
              Refusal.Check.OUT_OF_ORDER,
              "sent block "
                  + Long.toUnsignedString(number)
                  + " but block "
                  + expected
                  + " was expected"));
    }
    Optional<Refusal> refused = sink.accept(block);
    if (refused.isPresent()) {
      refusals.add(expected, source.endpoint());
      refusedTheChain.add(source.endpoint());
    }
    return refused;
  }

  /**
   * More than f of the config in force, but never more than there are sources; without sources
   * (closed, or no endpoint but this node's) nothing was refused.
   */
  private int refusalThreshold() {
    int f = config.get().config().consenters().quorums().f();
    return Math.min(f, Math.max(0, sources.all().size() - 1));
  }

  private static String ended(BlockStream.Next.Ended ended, long next, Optional<Long> stop) {
    return "answered "
        + ended.status()
        + " before block "
        + next
        + stop.map(s -> " (asked for blocks up to " + s + ")").orElse("");
  }
}
