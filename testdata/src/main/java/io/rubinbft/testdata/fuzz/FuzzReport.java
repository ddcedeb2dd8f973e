package io.rubinbft.testdata.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * What one fuzz run did: inputs tried, how many decoded to a value (the rest were refused), time.
 */
public record FuzzReport(String name, long seed, long inputs, long decoded, long nanos) {

  /** One line for the test's output, the figures BENCHMARKS.md quotes. */
  public String line() {
    return String.format(
        Locale.ROOT,
        "fuzz %s: %d inputs (%d decoded, %d refused) in %.1f s, seed %d, no finding",
        name,
        inputs,
        decoded,
        inputs - decoded,
        nanos / 1e9,
        seed);
  }

  void appendTo(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(
          file,
          line() + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
