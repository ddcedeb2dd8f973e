package io.rubinbft.orderer.testing;

import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.ConsenterMapping;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Checks each block's consenter signatures as a Fabric peer does across reconfigurations: block
 * {@code n} against a quorum of the consenters in force after block {@code n - 1} (those of the
 * newest config block before it). Config blocks it sees switch the set for the blocks after them;
 * blocks it was not shown before the first one it checks come from {@code history}.
 */
public final class EpochSignatureCheck implements Function<Block, Optional<String>> {

  private static final CryptoProvider PROVIDER = CryptoProvider.preferNative();

  private final ConcurrentSkipListMap<Long, BlockSignatureVerifier> byConfigBlock =
      new ConcurrentSkipListMap<>();

  private final LongFunction<Block> history;
  private long next = 1;

  /**
   * @param history block {@code n} of the chain, for the blocks before the first one checked
   */
  public EpochSignatureCheck(ChannelConfig genesisConfig, LongFunction<Block> history) {
    byConfigBlock.put(0L, verifier(genesisConfig.consenters()));
    this.history = history;
  }

  /** The reason block {@code block} is not validly signed, if it is not. */
  @Override
  public synchronized Optional<String> apply(Block block) {
    long number = block.getHeader().getNumber();
    while (next < number) {
      Optional<String> invalid = check(history.apply(next));
      if (invalid.isPresent()) {
        return invalid;
      }
    }
    return check(block);
  }

  private Optional<String> check(Block block) {
    long number = block.getHeader().getNumber();
    next = Math.max(next, number + 1);
    if (number == 0) {
      return Optional.empty();
    }
    Optional<String> invalid =
        byConfigBlock
            .floorEntry(number - 1)
            .getValue()
            .check(block.getHeader(), block.getMetadata())
            .invalidReason()
            .map(reason -> "block " + number + ": " + reason);
    if (block.getData().getDataCount() == 1
        && EnvelopeHeaders.isConfigEnvelope(block.getData().getData(0))) {
      try {
        byConfigBlock.put(number, verifier(ConfigBlockReader.read(block).consenters()));
      } catch (InvalidConfigException e) {
        return Optional.of("config block " + number + " does not read: " + e.getMessage());
      }
    }
    return invalid;
  }

  private static BlockSignatureVerifier verifier(ConsenterMapping consenters) {
    return new BlockSignatureVerifier(
        consenters, new EcKeys(PROVIDER), new EcdsaVerifier(PROVIDER));
  }
}
