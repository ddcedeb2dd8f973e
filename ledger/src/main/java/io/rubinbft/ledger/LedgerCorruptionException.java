package io.rubinbft.ledger;

/**
 * Stored data failed a check on read: the disk, the file system or someone outside the ledger
 * changed it. Never a reason to return the data; the message names channel, block and the check.
 */
public final class LedgerCorruptionException extends RuntimeException {

  private final String channel;
  private final long blockNumber;

  public LedgerCorruptionException(String channel, long blockNumber, String problem) {
    super("ledger corruption in channel '" + channel + "', block " + blockNumber + ": " + problem);
    this.channel = channel;
    this.blockNumber = blockNumber;
  }

  public String channel() {
    return channel;
  }

  public long blockNumber() {
    return blockNumber;
  }
}
