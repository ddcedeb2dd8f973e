package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.host.HostedEpoch;
import io.rubinbft.bft.protocol.Replica;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One simulated node's epoch as bft-core's {@link io.rubinbft.bft.host.EpochHost} drives it: the
 * node's durable WAL (such as {@link SimNode#durable}, which may crash right after an append,
 * before the sync), the simulated network and the node's ledger, given by the cluster that runs it.
 * The host's own unit test ({@code EpochHostTest}) extends it to record what the host does.
 */
public class SimHostedEpoch implements HostedEpoch {

  /** A node's crash right after a WAL append, before the sync: the step's records are lost. */
  public static final class CrashedBeforeSync extends RuntimeException {
    CrashedBeforeSync() {
      super(null, null, false, false);
    }
  }

  private final List<WalRecord> wal;
  private final long number;
  private final Replica replica;
  private final Consumer<List<Outbound>> network;
  private final Consumer<List<ArchiveRead>> archive;
  private final BooleanSupplier crashesBeforeSync;
  private final Predicate<Decision> endsEpoch;

  /**
   * @param wal the node's durable records of this epoch
   * @param number the epoch's anchor sequence
   * @param network sends a step's messages framed with this epoch
   * @param archive answers peers' archive reads from the node's ledger
   * @param crashesBeforeSync asked at each non-empty append: whether the node crashes before it is
   *     durable (then {@link CrashedBeforeSync} is thrown and nothing is appended)
   * @param endsEpoch the switch rule
   */
  public SimHostedEpoch(
      List<WalRecord> wal,
      long number,
      Replica replica,
      Consumer<List<Outbound>> network,
      Consumer<List<ArchiveRead>> archive,
      BooleanSupplier crashesBeforeSync,
      Predicate<Decision> endsEpoch) {
    this.wal = wal;
    this.number = number;
    this.replica = replica;
    this.network = network;
    this.archive = archive;
    this.crashesBeforeSync = crashesBeforeSync;
    this.endsEpoch = endsEpoch;
  }

  @Override
  public long number() {
    return number;
  }

  @Override
  public Replica replica() {
    return replica;
  }

  @Override
  public void send(List<Outbound> messages) {
    network.accept(messages);
  }

  @Override
  public void serve(List<ArchiveRead> reads) {
    archive.accept(reads);
  }

  @Override
  public void append(List<WalRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    if (crashesBeforeSync.getAsBoolean()) {
      throw new CrashedBeforeSync();
    }
    wal.addAll(records);
  }

  @Override
  public void sync() {
    // Appended records are durable at once in the simulator.
  }

  @Override
  public void close() {
    // The next epoch's WAL starts empty (SimNode.startEpoch).
  }

  @Override
  public boolean endsEpoch(Decision decision) {
    return endsEpoch.test(decision);
  }
}
