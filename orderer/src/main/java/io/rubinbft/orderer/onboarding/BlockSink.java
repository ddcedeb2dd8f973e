package io.rubinbft.orderer.onboarding;

import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;

/** Where pulled blocks go: it checks each one and keeps it, or says why not. */
@FunctionalInterface
public interface BlockSink {

  /**
   * Takes the next block of the chain.
   *
   * @return empty when the block was kept, else why it was discarded (the source that sent it is
   *     then distrusted and another one asked for the same block)
   */
  Optional<Refusal> accept(Block block);
}
