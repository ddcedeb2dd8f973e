package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.fail;

import io.rubinbft.net.verbs.VerbsException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;

/**
 * The Soft-RoCE guest the rdma-vm tests run in (scripts/softroce-vm.sh): its RDMA address, and a
 * device that opens there or skips the test with the reason elsewhere.
 */
final class SoftRoce {

  /** Generous: the guest runs under software emulation, about ten times slower than the host. */
  private static final long WAIT_NANOS = 120_000_000_000L;

  private SoftRoce() {}

  /** Opens the device; on a host without one the test is skipped, inside the guest it fails. */
  static FfmVerbsDevice openDevice(RdmaOptions options) throws VerbsException {
    try {
      return FfmVerbsDevice.open(options);
    } catch (RdmaUnavailableException e) {
      if (System.getenv("SOFTROCE_GUEST") != null) {
        throw e;
      }
      Assumptions.abort(
          "no RDMA device here (run scripts/rdma-vm-tests.sh for a Soft-RoCE guest): "
              + e.getMessage());
      throw e;
    }
  }

  /** The guest's RDMA address (softroce-vm.sh exports SOFTROCE_ADDR) with port 0. */
  static InetSocketAddress anyPort() throws UnknownHostException {
    String address = System.getenv().getOrDefault("SOFTROCE_ADDR", "192.0.2.1");
    return new InetSocketAddress(InetAddress.getByName(address), 0);
  }

  /** Runs {@code step} until {@code done} holds, failing with {@code what} after two minutes. */
  static void awaitUntil(String what, BooleanSupplier done, Step step) throws VerbsException {
    long start = System.nanoTime();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - start > WAIT_NANOS) {
        fail("gave up waiting for " + what);
      }
      step.run();
      Thread.onSpinWait();
    }
  }

  /** One round of polling. */
  @FunctionalInterface
  interface Step {
    void run() throws VerbsException;
  }
}
