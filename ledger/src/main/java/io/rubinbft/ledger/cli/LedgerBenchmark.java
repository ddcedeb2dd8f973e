package io.rubinbft.ledger.cli;

import io.rubinbft.ledger.BlockCursor;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.wal.Wal;
import io.rubinbft.ledger.wal.WalConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Ledger throughput on this machine: appends of blocks of 500 envelopes of 3.5 KB with a sync per
 * block and without, sequential (Deliver) reads with every check, and WAL appends with a sync per
 * record. Usage: {@code LedgerBenchmark <empty-work-dir> [blocks]} (default 200 blocks, i.e.
 * 100,000 envelopes, about 350 MB per store). See ledger/README.md for the command.
 */
public final class LedgerBenchmark {

  private static final int ENVELOPES = 500;
  private static final int ENVELOPE_BYTES = 3584;
  private static final int WARM_UP_BLOCKS = 20;
  private static final int WAL_RECORD_BYTES = 4096;
  private static final int WAL_RECORDS = 2000;

  private LedgerBenchmark() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.out.println("usage: LedgerBenchmark <empty-work-dir> [blocks]");
      System.exit(2);
    }
    Path work = Files.createDirectories(Path.of(args[0]));
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    System.out.printf(
        "generating %d blocks of %d envelopes of %d bytes%n", count, ENVELOPES, ENVELOPE_BYTES);
    List<byte[]> blocks = generate(count);
    append(work.resolve("warm-up"), blocks.subList(0, WARM_UP_BLOCKS), Durability.UNSYNCED);
    report(
        "append, sync per block",
        append(work.resolve("synced"), blocks, Durability.SYNCED),
        blocks);
    report(
        "append, no sync", append(work.resolve("unsynced"), blocks, Durability.UNSYNCED), blocks);
    report("sequential read (Deliver)", read(work.resolve("synced")), blocks);
    wal(work.resolve("wal"));
  }

  private static List<byte[]> generate(int count) {
    SyntheticChain chain =
        new SyntheticChain(42, "bench", ENVELOPES, ENVELOPE_BYTES, Optional.empty());
    List<byte[]> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      blocks.add(chain.next().toByteArray());
    }
    return blocks;
  }

  /** Wall-clock and process CPU time (all threads, RocksDB's included) of one phase. */
  private record Elapsed(long wallNanos, long cpuNanos) {

    static Elapsed since(long wallStart, long cpuStart) {
      return new Elapsed(System.nanoTime() - wallStart, processCpuNanos() - cpuStart);
    }
  }

  /** Appends every block to a new store. */
  private static Elapsed append(Path directory, List<byte[]> blocks, Durability durability) {
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(directory))) {
      ChannelLedger ledger = store.createChannel("bench");
      long wall = System.nanoTime();
      long cpu = processCpuNanos();
      for (byte[] block : blocks) {
        ledger.append(block, durability);
      }
      return Elapsed.since(wall, cpu);
    }
  }

  /** Reads the whole chain from block 0. */
  private static Elapsed read(Path directory) {
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(directory))) {
      BlockCursor cursor = store.channel("bench").orElseThrow().cursor(0);
      long wall = System.nanoTime();
      long cpu = processCpuNanos();
      while (cursor.next().isPresent()) {
        // every block is read and checked (checksum, number, data hash, hash link)
      }
      return Elapsed.since(wall, cpu);
    }
  }

  private static void report(String what, Elapsed elapsed, List<byte[]> blocks) {
    double seconds = elapsed.wallNanos() / 1e9;
    long bytes = blocks.stream().mapToLong(block -> block.length).sum();
    System.out.printf(
        "%-26s %7.0f envelopes/s %6.1f blocks/s %6.1f MB/s  CPU %5.1f ms/block  (%d blocks,"
            + " %.2f s)%n",
        what,
        blocks.size() * (double) ENVELOPES / seconds,
        blocks.size() / seconds,
        bytes / seconds / 1e6,
        elapsed.cpuNanos() / 1e6 / blocks.size(),
        blocks.size(),
        seconds);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void wal(Path directory) {
    byte[] payload = new byte[WAL_RECORD_BYTES];
    new Random(7).nextBytes(payload);
    try (Wal wal = Wal.open(WalConfig.defaults(directory))) {
      long start = System.nanoTime();
      for (int i = 0; i < WAL_RECORDS; i++) {
        wal.append(payload);
        wal.sync();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          "%-26s %7.0f records/s  (%d records of %d bytes in %.2f s)%n",
          "WAL append + sync per record",
          WAL_RECORDS / seconds,
          WAL_RECORDS,
          WAL_RECORD_BYTES,
          seconds);
    }
  }
}
