package io.rubinbft.net.rdma;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The error counters a Soft-RoCE (rxe) device keeps in sysfs: receiver-not-ready NAKs sent and
 * received, and sends that failed after their retries. They see what completions cannot: an RNR NAK
 * that a retry then papered over.
 */
final class RxeCounters {

  static final List<String> ERRORS =
      List.of(
          "rcvd_rnr_err",
          "send_rnr_err",
          "retry_exceeded_err",
          "retry_rnr_exceeded_err",
          "send_err");

  private final Path directory;

  RxeCounters(String device) {
    this.directory = Path.of("/sys/class/infiniband", device, "ports", "1", "hw_counters");
  }

  boolean available() {
    return Files.isReadable(directory.resolve(ERRORS.getFirst()));
  }

  /** The current value of every error counter, by name. */
  Map<String, Long> errors() {
    Map<String, Long> values = new TreeMap<>();
    for (String name : ERRORS) {
      try {
        values.put(name, Long.parseLong(Files.readString(directory.resolve(name)).strip()));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read rxe counter " + name, e);
      }
    }
    return values;
  }
}
