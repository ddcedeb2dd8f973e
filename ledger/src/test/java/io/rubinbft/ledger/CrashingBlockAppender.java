package io.rubinbft.ledger;

import io.rubinbft.ledger.cli.SyntheticChain;
import java.nio.file.Path;

/** The child of {@link BlockStoreCrashTest}: appends synced blocks until it is killed. */
public final class CrashingBlockAppender {

  static final String CHANNEL = "crash";

  private CrashingBlockAppender() {}

  /** Arguments: the store directory, a seed for the envelopes. */
  public static void main(String[] args) {
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(Path.of(args[0])))) {
      ChannelLedger ledger = store.channel(CHANNEL).orElseGet(() -> store.createChannel(CHANNEL));
      SyntheticChain chain =
          new SyntheticChain(Long.parseLong(args[1]), CHANNEL, 20, 500, ledger.lastHeader());
      while (true) {
        ledger.append(chain.next().toByteArray(), Durability.SYNCED);
        ChildJvm.acknowledge(ledger.height() - 1);
      }
    }
  }
}
