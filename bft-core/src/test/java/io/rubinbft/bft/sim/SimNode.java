package io.rubinbft.bft.sim;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One simulated replica: its durable WAL and its application's ledger of decisions survive crashes;
 * the replica object does not. The WAL holds the current epoch's records only (a new epoch starts
 * it empty); the ledger holds every executed decision after {@code ledgerBase}, across epochs.
 */
final class SimNode {

  final int id;
  final List<WalRecord> durable = new ArrayList<>();

  /** The application's durable store: index = sequence - ledgerBase - 1. */
  final List<Decision> ledger = new ArrayList<>();

  /** The sequence before the ledger's first decision. */
  final long ledgerBase;

  final Set<RequestId> decided = new HashSet<>();
  ReplicaConfig config;
  ReplicaServices services;

  /** The current epoch's anchor; null in the genesis epoch. */
  Decision anchor;

  Byzantine byzantine;
  Replica replica;

  /** A node of the genesis epoch ({@code anchor} null) or of the epoch after {@code anchor}. */
  SimNode(int id, ReplicaConfig config, ReplicaServices services, Decision anchor) {
    this.id = id;
    this.ledgerBase = anchor == null ? 0 : anchor.sequence();
    startEpoch(config, services, anchor, Handover.NONE);
  }

  /** A node that orders in no epoch yet: it joins later by catching up (no replica, no ledger). */
  SimNode(int id) {
    this.id = id;
    this.ledgerBase = 0;
  }

  /** Drops the current replica and its WAL; starts a replica of the epoch after {@code anchor}. */
  void startEpoch(
      ReplicaConfig config, ReplicaServices services, Decision anchor, Handover handover) {
    this.config = config;
    this.services = services;
    this.anchor = anchor;
    durable.clear();
    replica =
        anchor == null
            ? Replica.start(config, services)
            : Replica.start(config, services, anchor, handover);
  }

  /** Sequence of the last executed decision. */
  long lastExecuted() {
    return ledgerBase + ledger.size();
  }

  /** The executed decision at {@code sequence}, or null if the ledger does not hold it. */
  Decision executed(long sequence) {
    long index = sequence - ledgerBase - 1;
    return index < 0 || index >= ledger.size() ? null : ledger.get((int) index);
  }

  /**
   * The host's answer to an archive read: what its ledger holds from {@code read.from()} on, cut as
   * the orderer's host cuts it ({@link Decisions.Budget}).
   */
  List<Decision> archived(ArchiveRead read) {
    List<Decision> answer = new ArrayList<>();
    Decisions.Budget budget = new Decisions.Budget(read.maxCount(), read.maxBytes());
    for (long at = Math.max(0, read.from() - 1 - ledgerBase); at < ledger.size(); at++) {
      Decision decision = ledger.get((int) at);
      if (!budget.take(decision)) {
        break;
      }
      answer.add(decision);
    }
    return answer;
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
    replica =
        anchor == null
            ? Replica.recover(config, services, durable::forEach)
            : Replica.recover(
                config,
                services,
                anchor,
                executedMemory(config.decidedIdMemory()),
                durable::forEach);
  }

  /**
   * What the host knows without its replica (after a crash, or when it executed decisions its
   * replica never delivered): the ids of its last {@code limit} executed requests, oldest first.
   */
  Handover executedMemory(int limit) {
    ArrayDeque<RequestId> recent = new ArrayDeque<>();
    for (int i = ledger.size() - 1; i >= 0 && recent.size() < limit; i--) {
      List<Request> requests = ledger.get(i).proposal().requests();
      for (int r = requests.size() - 1; r >= 0 && recent.size() < limit; r--) {
        recent.addFirst(requests.get(r).id());
      }
    }
    return new Handover(List.of(), List.copyOf(recent));
  }
}
