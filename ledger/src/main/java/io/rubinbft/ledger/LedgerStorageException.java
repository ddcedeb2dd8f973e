package io.rubinbft.ledger;

/** RocksDB itself failed (I/O error, full disk, lock held by another process). */
public final class LedgerStorageException extends RuntimeException {

  public LedgerStorageException(String what, Throwable cause) {
    super(what + ": " + cause.getMessage(), cause);
  }
}
