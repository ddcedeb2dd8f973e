package io.rubinbft.ledger;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.stream.Stream;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What a tx id lookup costs on this machine, of ids the channel never ordered (every new
 * transaction) and of ids it did, with RocksDB's prefix Bloom filters of the tx index off and on,
 * and with the heap filter ({@link TxIdFilter}) off and on, at each history size given. Ids are
 * Fabric's shape (64 hex digits), written in blocks of 500; the database is opened again before
 * measuring, so the history is in table files as on a node that restarted, and measured once
 * compactions settled (a directory left by an earlier run is measured again as it is). Prints one
 * row per combination: the lookup thread's CPU per lookup (RocksDB's background threads left out).
 *
 * <p>Usage (test classpath): {@code TxIdLookupBenchmark <empty-work-dir> <lookups> <ids>...}, e.g.
 * {@code /tmp/txid-bench 200000 100000 3000000}; see ledger/README.md for the command.
 */
public final class TxIdLookupBenchmark {

  private static final int CHANNEL = 1;
  private static final int BLOCK_IDS = 500;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private TxIdLookupBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.out.println("usage: TxIdLookupBenchmark <empty-work-dir> <lookups> <ids>...");
      System.exit(2);
    }
    Path work = Files.createDirectories(Path.of(args[0]));
    int lookups = Integer.parseInt(args[1]);
    System.out.println(
        "ids       rocksdb-filters heap-filter  absent ns/lookup  present ns/lookup  (thread CPU)");
    for (int i = 2; i < args.length; i++) {
      int ids = Integer.parseInt(args[i]);
      for (boolean rocksdbFilters : new boolean[] {false, true}) {
        Path directory = work.resolve(ids + (rocksdbFilters ? "-filters" : "-plain"));
        long fill = System.nanoTime();
        if (!Files.exists(directory)) {
          try (LedgerDatabase db = LedgerDatabase.open(directory, rocksdbFilters)) {
            fill(db, ids);
          }
        }
        System.out.printf(
            Locale.ROOT,
            "# %d ids written in %.1f s, %d table files%n",
            ids,
            (System.nanoTime() - fill) / 1e9,
            tableFiles(directory));
        try (LedgerDatabase db = LedgerDatabase.open(directory, rocksdbFilters)) {
          System.out.printf(
              Locale.ROOT, "# %d table files once compactions settled%n", settled(directory));
          for (boolean heapFilter : new boolean[] {false, true}) {
            TxIndex index =
                heapFilter
                    ? new TxIndex(db, "bench", CHANNEL, TxIdFilter.MIN_IDS, Math.max(ids, 2) * 2)
                    : new TxIndex(db, "bench", CHANNEL, 1, 1);
            measure(index, lookups / 4, ids);
            System.out.printf(
                Locale.ROOT,
                "%-9d %-15s %-12s %16.0f %18.0f%n",
                ids,
                rocksdbFilters ? "on" : "off",
                heapFilter ? "on" : "off",
                nanosPerLookup(index, lookups, "absent", ids, false),
                nanosPerLookup(index, lookups, "present", ids, true));
          }
        }
      }
    }
  }

  private static void fill(LedgerDatabase db, int ids) throws RocksDBException {
    for (int first = 0; first < ids; first += BLOCK_IDS) {
      try (WriteBatch batch = new WriteBatch()) {
        for (int i = first; i < Math.min(ids, first + BLOCK_IDS); i++) {
          batch.put(
              db.txIndex(),
              KeyLayout.txKey(CHANNEL, id("present", i), first / BLOCK_IDS),
              new byte[4]);
        }
        db.write(batch, Durability.UNSYNCED, "benchmark fill");
      }
    }
  }

  private static void measure(TxIndex index, int lookups, int ids) {
    nanosPerLookup(index, lookups, "warm-up", ids, false);
    nanosPerLookup(index, lookups, "present", ids, true);
  }

  /** Lookups of the ids {@code kind} 0.., or spread over the present ones. */
  private static double nanosPerLookup(
      TxIndex index, int lookups, String kind, int ids, boolean expectFound) {
    String[] txIds = new String[lookups];
    for (int i = 0; i < lookups; i++) {
      int n = expectFound ? (int) ((long) i * 7919 % ids) : i;
      txIds[i] = new String(id(kind, n), StandardCharsets.US_ASCII);
    }
    long start = THREADS.getCurrentThreadCpuTime();
    int found = 0;
    for (String txId : txIds) {
      if (index.locate(txId).isPresent()) {
        found++;
      }
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - start;
    if (found != (expectFound ? lookups : 0)) {
      throw new IllegalStateException(kind + ": found " + found + " of " + lookups);
    }
    return (double) cpu / lookups;
  }

  /** A Fabric-shaped tx id: 64 hex digits of SHA-256 over {@code kind} and {@code n}. */
  private static byte[] id(String kind, int n) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((kind + n).getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(digest).getBytes(StandardCharsets.US_ASCII);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits until RocksDB's background compactions leave the table files alone for 10 s. */
  private static long settled(Path directory) throws Exception {
    long files = tableFiles(directory);
    for (int quiet = 0, waited = 0; quiet < 10 && waited < 300; waited++) {
      Thread.sleep(1000);
      long now = tableFiles(directory);
      quiet = now == files ? quiet + 1 : 0;
      files = now;
    }
    return files;
  }

  private static long tableFiles(Path directory) throws java.io.IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.toString().endsWith(".sst")).count();
    }
  }
}
