package io.rubinbft.orderer.consensus;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import org.hyperledger.fabric.protos.common.Block;

/**
 * The consensus epoch a channel's ledger is in, for a restart: the newest config block whose
 * consenters or PBFT settings differ from the config before it ({@link EpochRule}), or the genesis
 * block. Walks back from the newest config block through each config block's predecessor (the last
 * config index of the block before it), so it reads only config blocks and their neighbours.
 */
public final class EpochLocator {

  private EpochLocator() {}

  /** The config of the block that started the ledger's current epoch. */
  public static ChannelConfig current(ChannelLedger ledger) throws InvalidConfigException {
    ChannelConfig config = configBefore(ledger, ledger.height());
    while (config.blockNumber() > 0) {
      ChannelConfig before = configBefore(ledger, config.blockNumber());
      if (EpochRule.startsNewEpoch(before, config)) {
        return config;
      }
      config = before;
    }
    return config;
  }

  /** The config in force after block {@code next - 1}. */
  private static ChannelConfig configBefore(ChannelLedger ledger, long next)
      throws InvalidConfigException {
    Block previous = block(ledger, next - 1);
    long index = previous.getHeader().getNumber() == 0 ? 0 : LastConfigIndex.of(previous);
    return ConfigBlockReader.read(block(ledger, index));
  }

  private static Block block(ChannelLedger ledger, long number) {
    return ledger
        .block(number)
        .map(StoredBlock::block)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "ledger of channel " + ledger.name() + " has no block " + number));
  }
}
