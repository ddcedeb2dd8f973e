package io.rubinbft.orderer.node;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The newest consensus epoch a channel's peers sent frames of: the catch-up detection. */
final class NewerEpochs {

  private static final Logger LOG = LoggerFactory.getLogger(NewerEpochs.class);

  private final String channel;
  private final LongConsumer onNewer;
  private final AtomicLong newest = new AtomicLong(-1);

  /**
   * @param onNewer told once per newer epoch, on the network thread: must not block
   */
  NewerEpochs(String channel, LongConsumer onNewer) {
    this.channel = channel;
    this.onNewer = onNewer;
  }

  /** On the network thread: a peer's frame of epoch {@code epoch}, newer than this node's. */
  void seen(long epoch) {
    long before = newest.getAndAccumulate(epoch, Math::max);
    if (epoch > before) {
      LOG.info("channel {}: a consenter runs epoch {}, newer than this node's", channel, epoch);
      onNewer.accept(epoch);
    }
  }

  /** The newest epoch seen if it is newer than {@code own}. */
  OptionalLong newerThan(long own) {
    long seen = newest.get();
    return seen > own ? OptionalLong.of(seen) : OptionalLong.empty();
  }
}
