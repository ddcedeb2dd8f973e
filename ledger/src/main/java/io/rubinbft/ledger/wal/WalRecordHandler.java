package io.rubinbft.ledger.wal;

/** Receives records during {@link Wal#replay}; the payload array is the handler's to keep. */
@FunctionalInterface
public interface WalRecordHandler {

  void onRecord(long index, byte[] payload);
}
