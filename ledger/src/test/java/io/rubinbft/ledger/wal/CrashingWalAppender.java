package io.rubinbft.ledger.wal;

import io.rubinbft.ledger.ChildJvm;
import java.nio.file.Path;

/** The child of {@link WalCrashTest}: appends and syncs records until it is killed. */
public final class CrashingWalAppender {

  static final WalConfig config(Path directory) {
    return new WalConfig(directory, 4096, 32 * 1024);
  }

  /** The payload of record {@code index}: its bytes and length follow from the index. */
  static byte[] payload(long index) {
    return WalTest.payload(index, (int) (index * 7919 % 4096));
  }

  private CrashingWalAppender() {}

  /** Argument: the WAL directory. */
  public static void main(String[] args) {
    try (Wal wal = Wal.open(config(Path.of(args[0])))) {
      while (true) {
        long index = wal.append(payload(wal.nextIndex()));
        wal.sync();
        ChildJvm.acknowledge(index);
      }
    }
  }
}
