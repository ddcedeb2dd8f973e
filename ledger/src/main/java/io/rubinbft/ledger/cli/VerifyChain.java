package io.rubinbft.ledger.cli;

import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChainVerification;
import io.rubinbft.ledger.ChainVerifier;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.LedgerCorruptionException;
import io.rubinbft.ledger.LedgerStorageException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Verifies the chains of a stopped orderer's ledger (RocksDB locks the directory while the orderer
 * runs; verify a copy then). Usage: {@code VerifyChain <ledger-dir> [channel ...]}, all channels
 * when none is named. Exit status 0: every chain verified; 1: a chain failed; 2: usage or the store
 * did not open.
 */
public final class VerifyChain {

  static final int OK = 0;
  static final int FAILED = 1;
  static final int CANNOT_RUN = 2;

  private VerifyChain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }

  static int run(String[] args, PrintStream out) {
    if (args.length == 0 || !Files.isDirectory(Path.of(args[0]))) {
      out.println("usage: VerifyChain <ledger-dir> [channel ...]  (an existing ledger directory)");
      return CANNOT_RUN;
    }
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(Path.of(args[0])))) {
      List<String> names =
          args.length > 1 ? Arrays.asList(args).subList(1, args.length) : store.channelNames();
      boolean allOk = true;
      for (String name : names) {
        allOk &= verify(store.channel(name), name, out);
      }
      return allOk ? OK : FAILED;
    } catch (LedgerCorruptionException | LedgerStorageException e) {
      out.println("cannot open the ledger: " + e.getMessage());
      return CANNOT_RUN;
    }
  }

  private static boolean verify(Optional<ChannelLedger> ledger, String name, PrintStream out) {
    if (ledger.isEmpty()) {
      out.println(name + ": FAILED, no such channel");
      return false;
    }
    ChainVerification result = ChainVerifier.verify(ledger.get());
    if (result.ok()) {
      out.printf(
          "%s: OK, %d blocks; checksums, data hashes and hash links verified%n",
          name, result.blocksVerified());
    } else {
      out.printf(
          "%s: FAILED after %d of %d blocks: %s%n",
          name, result.blocksVerified(), result.height(), result.problem().orElseThrow());
    }
    return result.ok();
  }
}
