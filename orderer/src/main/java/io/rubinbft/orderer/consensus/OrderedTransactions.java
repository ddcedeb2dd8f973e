package io.rubinbft.orderer.consensus;

import com.google.protobuf.ByteString;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Request;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.ledger.TxLocation;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Which requests one channel has ordered, exactly and without a bounded memory: the ledger's tx
 * index, and the decisions the replica host executed that the ledger writer has not appended yet.
 * The host records a decision when it executes it, before anything later is answered; the writer
 * forgets it only after its block is in the ledger, so an executed request is always found in one
 * of the two (looked up in that order).
 *
 * <p>bft-core remembers decided ids in a bounded memory that starts empty after a restart of the
 * genesis epoch; this is what Broadcast, the primary and the backups' proposal check ask instead,
 * so a transaction id already ordered is never ordered again (issue 17). Requests keyed by an
 * envelope hash or a config update's hash ({@link FabricRequests}) are not in the tx index: for
 * them only the unwritten decisions answer here.
 *
 * <p>Thread-safe: the host records on its thread, the writer forgets on its own, Broadcast looks up
 * on the callers' threads.
 */
public final class OrderedTransactions {

  /**
   * An ordered request: the block it is in and its envelope.
   *
   * @param envelope the bytes as ordered (read from the ledger when the block is there)
   */
  public record Ordered(long blockNumber, byte[] envelope) {

    /** Whether {@code candidate} is the envelope ordered, byte for byte. */
    public boolean sameEnvelope(byte[] candidate) {
      return Arrays.equals(envelope, candidate);
    }
  }

  /** The chain's tx index and blocks: the channel's ledger. */
  public interface Chain {

    /** The first occurrence of {@code txId} in the chain. */
    Optional<TxLocation> locate(String txId);

    /** Block {@code number}, if the chain holds it. */
    Optional<Block> block(long number);

    static Chain of(ChannelLedger ledger) {
      return new Chain() {
        @Override
        public Optional<TxLocation> locate(String txId) {
          return ledger.locate(txId);
        }

        @Override
        public Optional<Block> block(long number) {
          return ledger.block(number).map(StoredBlock::block);
        }
      };
    }
  }

  private final Chain ledger;
  private final Map<String, Ordered> unwritten = new ConcurrentHashMap<>();

  public OrderedTransactions(Chain ledger) {
    this.ledger = ledger;
  }

  public OrderedTransactions(ChannelLedger ledger) {
    this(Chain.of(ledger));
  }

  /**
   * The block number of request key {@code key} (a tx id, see {@link FabricRequests#key}), if
   * ordered. A ledger lookup costs one index seek: callers ask once per envelope.
   */
  public Optional<Long> blockOf(String key) {
    Ordered executed = unwritten.get(key);
    if (executed != null) {
      return Optional.of(executed.blockNumber());
    }
    return ledger.locate(key).map(TxLocation::blockNumber);
  }

  /** The ordered request under {@code key} with its envelope, if ordered (reads its block). */
  public Optional<Ordered> find(String key) {
    Ordered executed = unwritten.get(key);
    if (executed != null) {
      return Optional.of(executed);
    }
    return ledger
        .locate(key)
        .flatMap(
            location ->
                ledger
                    .block(location.blockNumber())
                    .map(
                        block -> {
                          ByteString envelope = block.getData().getData(location.envelopeIndex());
                          return new Ordered(location.blockNumber(), envelope.toByteArray());
                        }));
  }

  /** The host executed {@code decision} (block {@code decision.sequence()}). Host thread. */
  void executed(Decision decision) {
    long block = decision.sequence();
    for (Request request : decision.proposal().requests()) {
      unwritten.putIfAbsent(request.id().key(), new Ordered(block, request.payload()));
    }
  }

  /** {@code decision}'s block is in the ledger (or was already): the index answers for it now. */
  void written(Decision decision) {
    for (Request request : decision.proposal().requests()) {
      unwritten.remove(request.id().key());
    }
  }
}
