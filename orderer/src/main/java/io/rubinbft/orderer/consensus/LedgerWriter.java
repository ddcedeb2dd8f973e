package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Decision;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.concurrent.WorkerGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Appends decided blocks to the channel's ledger on a thread of its own, so a disk sync never
 * stalls the protocol: a decision is already durable in the consensus WAL when it gets here. A
 * queue of decisions is appended with one sync at its end (group commit). Block {@code s} of a
 * channel started at its genesis block is sequence {@code s}; a decision the ledger already holds
 * (handed over again after a restart) is skipped.
 */
final class LedgerWriter implements AutoCloseable {

  private static final int QUEUE = 4096;

  private static final String ROLE = "ledger writer";

  private final ChannelLedger ledger;
  private final OrderedTransactions ordered;
  private final BlockingQueue<Decision> decisions = new ArrayBlockingQueue<>(QUEUE);
  private final Worker worker;

  /**
   * @param ordered told of each decision once its block is in the ledger
   * @param group the workers the channel's replica needs, which this writer joins
   */
  LedgerWriter(ChannelLedger ledger, OrderedTransactions ordered, WorkerGroup group) {
    this.ledger = ledger;
    this.ordered = ordered;
    // Not interrupted: an interrupt closes the ledger's file channels under an append.
    this.worker =
        Worker.named("ledger-" + ledger.name())
            .notInterrupted()
            .partOf(group, ROLE)
            .start(this::run);
  }

  /** Hands a decision over; blocks while the writer is a full queue behind (back-pressure). */
  void write(Decision decision) throws InterruptedException {
    decisions.put(decision);
  }

  /** Why the writer stopped, if it did: the node must stop serving the channel. */
  Optional<String> failure() {
    return worker.failure().map(e -> ROLE + " stopped: " + e);
  }

  @Override
  public void close() {
    worker.close();
  }

  private void run(Worker self) throws InterruptedException {
    List<Decision> batch = new ArrayList<>();
    while (!self.stopRequested() || !decisions.isEmpty()) {
      Decision first = decisions.poll(50, TimeUnit.MILLISECONDS);
      if (first == null) {
        continue;
      }
      batch.add(first);
      decisions.drainTo(batch);
      append(batch);
      batch.clear();
    }
  }

  private void append(List<Decision> batch) {
    for (int i = 0; i < batch.size(); i++) {
      Block block = ProposalBlocks.signedBlock(batch.get(i));
      if (block.getHeader().getNumber() >= ledger.height()) {
        boolean last = i == batch.size() - 1;
        ledger.append(block.toByteArray(), last ? Durability.SYNCED : Durability.UNSYNCED);
      }
      // Unsynced blocks count: the index finds them, and one lost in a power loss is recovered
      // from the consensus WAL before anything is served again.
      ordered.written(batch.get(i));
    }
  }
}
