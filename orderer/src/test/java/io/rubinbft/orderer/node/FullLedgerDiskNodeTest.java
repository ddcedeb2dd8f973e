package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.TmpfsDisk;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose ledger disk fills while the channel orders, on a running 4-node cluster: its replica
 * stops (a block append fails), its channel's restarts fail while the disk stays full, and once the
 * disk has space again the channel starts again and catches up, without a restart of the node. Node
 * 3's ledger folder is a small tmpfs and its consensus WAL folder a tmpfs of its own, so only the
 * ledger's writes fail: the WAL holds decisions the ledger lacks, which a restart appends first
 * (the append that fails while the disk is full). Needs root to mount the tmpfs, as the fault
 * suite.
 */
class FullLedgerDiskNodeTest {

  private static final int FULL = 3;

  private static final long LEDGER_DISK = 8L << 20;

  private static final long SPACE_AGAIN = 256L << 20;

  @TempDir Path dir;

  private LocalCluster cluster;
  private final List<TmpfsDisk> disks = new ArrayList<>();

  @AfterEach
  void unmountAfterTheNodesStopped() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    for (TmpfsDisk disk : disks.reversed()) {
      disk.close();
    }
  }

  @Test
  void aChannelWhoseLedgerDiskWasFullServesAgainOnceTheDiskHasSpace() throws Exception {
    cluster = LocalCluster.generate(dir);
    // Smaller than what RocksDB preallocates for its log (which it then skips): the ledger's writes
    // take pages as they go, so they fail as soon as the disk is shrunk to what it holds.
    TmpfsDisk ledgerDisk = TmpfsDisk.mount(cluster.ledgerDirectory(FULL), LEDGER_DISK);
    disks.add(ledgerDisk);
    disks.add(TmpfsDisk.mount(cluster.walDirectory(FULL), 256L << 20));
    cluster.startAndJoin();
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    cluster.submit(client, 10);
    cluster.awaitTransactions(10);

    FailedStarts failedStarts = FailedStarts.watch();
    try {
      ledgerDisk.shrinkToUsed();
      // The others order on; the full node's replica stops, and its restarts fail.
      cluster.submit(client, 20, cluster.nodes.subList(0, FULL));
      failedStarts.await(1, 60);
    } finally {
      // Room for RocksDB's own recovery from a full disk: it resumes writing once the free space
      // exceeds what its write buffers may need.
      ledgerDisk.resize(SPACE_AGAIN);
      failedStarts.close();
    }

    cluster.submit(client, 10, cluster.nodes.subList(0, FULL));
    cluster.awaitTransactions(10 + 20 + 10);
  }

  /** Counts the lifecycle's "cannot start it" reports of a channel's failed start. */
  private static final class FailedStarts extends Handler implements AutoCloseable {

    private static final Logger LIFECYCLE = Logger.getLogger(ChannelLifecycle.class.getName());

    private final AtomicInteger count = new AtomicInteger();

    static FailedStarts watch() {
      FailedStarts handler = new FailedStarts();
      LIFECYCLE.addHandler(handler);
      return handler;
    }

    void await(int atLeast, int seconds) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (count.get() < atLeast && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(count.get())
          .as("failed starts of the channel while the disk is full")
          .isPositive();
    }

    @Override
    public void publish(LogRecord record) {
      if (record.getLevel() == Level.SEVERE
          && String.valueOf(record.getMessage()).contains("cannot start it")) {
        count.incrementAndGet();
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      LIFECYCLE.removeHandler(this);
    }
  }
}
