package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One simulated replica: its durable WAL and its application's ledger of decisions survive crashes;
 * the replica object does not.
 */
final class SimNode {

  final int id;
  final ReplicaConfig config;
  final ReplicaServices services;
  final List<WalRecord> durable = new ArrayList<>();

  /**
   * The application's durable store: every decision handed over, in order (index = sequence - 1).
   */
  final List<Decision> ledger = new ArrayList<>();

  final Set<RequestId> decided = new HashSet<>();
  Byzantine byzantine;
  Replica replica;

  SimNode(int id, ReplicaConfig config, ReplicaServices services) {
    this.id = id;
    this.config = config;
    this.services = services;
    this.replica = Replica.start(config, services);
  }

  /** The host's answer to an archive read: what its ledger holds from {@code read.from()} on. */
  List<Decision> archived(ArchiveRead read) {
    int from = (int) Math.min(read.from() - 1, ledger.size());
    int to = (int) Math.min((long) from + read.maxCount(), ledger.size());
    return List.copyOf(ledger.subList(from, to));
  }

  boolean up() {
    return replica != null;
  }

  boolean correct() {
    return byzantine == null;
  }

  void crash() {
    replica = null;
  }

  void restart() {
    replica = Replica.recover(config, services, durable);
  }
}
