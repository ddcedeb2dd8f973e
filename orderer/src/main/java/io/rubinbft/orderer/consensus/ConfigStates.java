package io.rubinbft.orderer.consensus;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.StoredBlock;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;

/**
 * Which config is in force after each block of a channel's chain, committed or still in flight, so
 * that the primary's batches and every backup's proposal check use the config the chain itself
 * determines: a config block's config applies from the next block on, and a proposal is judged by
 * the config after its predecessor, whether or not that one is decided yet. Keyed by block header
 * hash, so a proposal replaced in a view change never lends its config to the chain that replaced
 * it. Also tracks the committed config, which Broadcast and Deliver use.
 *
 * <p>Thread-safe: the replica thread records and looks up, the ledger's appending thread reports
 * commits, Broadcast threads read the committed state.
 */
public final class ConfigStates {

  /** States remembered by header hash: far more than the blocks in flight (window 64). */
  private static final int REMEMBERED = 1024;

  /** Committed config states kept by block number (replicas far behind rebuild older ones). */
  private static final int COMMITTED_CONFIGS = 8;

  /** Builds the state for a config; configs reaching here passed ingress and proposal checks. */
  @FunctionalInterface
  public interface Factory {
    ConfigState build(ChannelConfig config) throws InvalidConfigException;
  }

  private record After(long blockNumber, ConfigState state) {}

  /** The committed blocks of the chain, by number. */
  @FunctionalInterface
  public interface CommittedBlocks {
    Optional<Block> block(long number);

    /** Block {@code number}'s header; read with the whole block unless a cheaper way is known. */
    default Optional<BlockHeader> header(long number) {
      return block(number).map(Block::getHeader);
    }

    /** The blocks of {@code ledger}, whose newest header it holds in memory. */
    static CommittedBlocks of(ChannelLedger ledger) {
      return new CommittedBlocks() {
        @Override
        public Optional<Block> block(long number) {
          return ledger.block(number).map(StoredBlock::block);
        }

        @Override
        public Optional<BlockHeader> header(long number) {
          return ledger
              .lastHeader()
              .filter(header -> header.getNumber() == number)
              .or(() -> block(number).map(Block::getHeader));
        }
      };
    }
  }

  private final Factory factory;
  private final CommittedBlocks ledger;
  private final Map<ByteString, After> afterBlock =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteString, After> eldest) {
          return size() > REMEMBERED;
        }
      };
  private final Map<Long, ConfigState> byConfigBlock =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, ConfigState> eldest) {
          return size() > COMMITTED_CONFIGS;
        }
      };
  private volatile ConfigState committed;

  /** The ledger height whose tip {@link #heightReached} last read. */
  private volatile long accountedHeight;

  /**
   * @param ledger the channel's committed blocks
   * @param tip the newest committed block: the config it names is the committed config
   */
  public ConfigStates(Factory factory, CommittedBlocks ledger, Block tip)
      throws InvalidConfigException {
    this.factory = factory;
    this.ledger = ledger;
    this.committed = committedState(LastConfigIndex.of(tip));
    this.accountedHeight = tip.getHeader().getNumber() + 1;
    remember(tip, committed);
  }

  /** The config of the newest committed config block the ledger's height listener installed. */
  public ConfigState committed() {
    return committed;
  }

  /**
   * The config of the newest config block among the ledger's first {@code height} blocks. The
   * height listener runs after the ledger's waiters wake, so a Deliver stream may see a new block
   * before the listener installed its config; asking with the height it sees makes the block's own
   * config apply to it: a client the config block removes gets FORBIDDEN instead of that block, and
   * a Broadcast that follows it is judged by it. One volatile read when nothing is new.
   */
  public ConfigState committedAt(long height) {
    if (height > accountedHeight) {
      heightReached(height);
    }
    return committed;
  }

  /**
   * The config in force for the block after {@code previous}, or empty when this replica cannot
   * know it: {@code previous} is a config block it has not checked, or names a config block it has
   * neither checked nor committed.
   */
  public synchronized Optional<ConfigState> after(Block previous) {
    After entry = afterBlock.get(hash(previous.getHeader()));
    if (entry != null) {
      return Optional.of(entry.state());
    }
    long number = previous.getHeader().getNumber();
    Optional<Block> stored = ledger.block(number);
    if (stored.isPresent() && !stored.get().getHeader().equals(previous.getHeader())) {
      return Optional.empty();
    }
    // A block of the ledger, or one in flight that this replica neither checked nor assembled (a
    // new view re-proposes prepared ones): its last config index passed a quorum's checks, and a
    // committed config block's config is the one in force after it.
    long configBlock = LastConfigIndex.of(stored.orElse(previous));
    if (stored.isEmpty() && (configBlock == number || ledger.block(configBlock).isEmpty())) {
      return Optional.empty();
    }
    try {
      ConfigState state = committedState(configBlock);
      remember(previous, state);
      return Optional.of(state);
    } catch (InvalidConfigException e) {
      throw new IllegalStateException("committed config block is not valid: " + e.getMessage(), e);
    }
  }

  /**
   * Records the config in force after {@code block}, which was checked (or assembled) under {@code
   * before}: its own config if it is a config block, else {@code before}.
   *
   * @throws IllegalStateException when a config block that passed the checks cannot be read
   */
  public synchronized ConfigState record(Block block, ConfigState before) {
    ConfigState after = before;
    if (EnvelopeHeaders.isConfigBlock(block.getData().getDataList())) {
      try {
        after = factory.build(ConfigBlockReader.read(block));
      } catch (InvalidConfigException e) {
        throw new IllegalStateException(
            "config block " + block.getHeader().getNumber() + " passed its checks but: " + e, e);
      }
    }
    remember(block, after);
    return after;
  }

  /**
   * Called with the ledger's new height (on the appending thread): installs the newest committed
   * config when the chain's tip names a newer config block than the committed one. The tip's
   * LAST_CONFIG index is read on every call, not only for config blocks this replica checked: a
   * replica that caught up by state transfer never checked the config blocks it received, and
   * Broadcast and Deliver must still apply them at once (a removed org must lose access on every
   * node, not after a restart). The block just written is read back only when this replica did not
   * check or assemble it.
   */
  public void heightReached(long height) {
    try {
      long configBlock = lastConfigIndex(height - 1);
      ConfigState state =
          configBlock > committed.config().blockNumber() ? committedState(configBlock) : committed;
      synchronized (this) {
        if (state.config().blockNumber() > committed.config().blockNumber()) {
          committed = state;
        }
        accountedHeight = Math.max(accountedHeight, height);
      }
    } catch (InvalidConfigException e) {
      throw new IllegalStateException("committed config block is not valid: " + e.getMessage(), e);
    }
  }

  /**
   * Committed block {@code number}'s LAST_CONFIG index. A block this replica checked or assembled
   * names the config of the state recorded after it (the check compared the two, and a config block
   * names itself), which saves reading and re-hashing every block just written.
   */
  private long lastConfigIndex(long number) {
    Optional<BlockHeader> header = ledger.header(number);
    After checked;
    synchronized (this) {
      checked = header.map(h -> afterBlock.get(hash(h))).orElse(null);
    }
    return checked != null
        ? checked.state().config().blockNumber()
        : LastConfigIndex.of(ledger.block(number).orElseThrow());
  }

  /** The state of ledger block {@code configBlock}: the one its proposal check built, if any. */
  private synchronized ConfigState committedState(long configBlock) throws InvalidConfigException {
    ConfigState known = byConfigBlock.get(configBlock);
    if (known != null) {
      return known;
    }
    Block block = ledger.block(configBlock).orElseThrow();
    After checked = afterBlock.get(hash(block.getHeader()));
    ConfigState state =
        checked != null ? checked.state() : factory.build(ConfigBlockReader.read(block));
    byConfigBlock.put(configBlock, state);
    return state;
  }

  private void remember(Block block, ConfigState state) {
    afterBlock.put(hash(block.getHeader()), new After(block.getHeader().getNumber(), state));
  }

  private static ByteString hash(BlockHeader header) {
    return ByteString.copyFrom(BlockHashing.headerHash(header));
  }
}
