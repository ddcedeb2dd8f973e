package io.rubinbft.ledger.wal;

import java.nio.file.Path;

/**
 * A partially written last record that opening the WAL cut off: what a crash during an unsynced (or
 * not yet synced) append leaves behind. Its record was never acknowledged as durable.
 *
 * @param file the last segment
 * @param offset where the torn record started; the file now ends here
 * @param bytesCut how many bytes were cut
 * @param reason what was wrong with the record
 */
public record TornTail(Path file, long offset, long bytesCut, String reason) {}
