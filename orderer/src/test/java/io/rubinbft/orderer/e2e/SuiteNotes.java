package io.rubinbft.orderer.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.slf4j.Logger;

/** A long test's own log beside its node logs: what it did and when, to read with theirs. */
final class SuiteNotes {

  private SuiteNotes() {}

  /** Logs {@code line} to {@code log} and appends it, timestamped, to {@code notes}. */
  static void append(Logger log, Path notes, String line) {
    log.info(line);
    try {
      Files.writeString(
          notes,
          Instant.now() + " " + line + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      log.warn("cannot write {}", notes, e);
    }
  }
}
