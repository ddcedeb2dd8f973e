package io.rubinbft.ledger;

import java.util.Optional;

/**
 * Verifies a whole chain: every block's checksum, header number and data hash, and every hash link
 * from block 0 to the height at the start.
 */
public final class ChainVerifier {

  private ChainVerifier() {}

  public static ChainVerification verify(ChannelLedger ledger) {
    long height = ledger.height();
    BlockCursor cursor = ledger.cursor(0);
    try {
      while (cursor.nextNumber() < height) {
        if (cursor.next().isEmpty()) {
          throw new IllegalStateException(
              "block " + cursor.nextNumber() + " vanished below the height " + height);
        }
      }
    } catch (LedgerCorruptionException e) {
      return new ChainVerification(
          ledger.name(), height, cursor.nextNumber(), Optional.of(String.valueOf(e.getMessage())));
    }
    return new ChainVerification(ledger.name(), height, height, Optional.empty());
  }
}
