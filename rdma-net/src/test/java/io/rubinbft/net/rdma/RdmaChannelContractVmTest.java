package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestReporter;

/**
 * The channel contract over real verbs (Soft-RoCE in the guest of scripts/rdma-vm-tests.sh).
 * Devices are opened with an RNR retry count of 0, so a single send that found its receive unposted
 * fails its queue pair at once; and the device's own counters must show no RNR NAK and no failed
 * send after each test: the failure that crashed RUBIN never happens, not even retried.
 */
@Tag("rdma-vm")
class RdmaChannelContractVmTest extends ChannelContractTest {

  private static String deviceName;
  private Map<String, Long> errorsBefore;

  @BeforeAll
  static void deviceExists() throws VerbsException {
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults())) {
      deviceName = device.name();
    }
  }

  @Override
  protected Transport newTransport() throws IOException {
    FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults().withRnrRetryCount(0));
    return new SoftRoceAddresses(
        VerbsTransport.open(device, 4096, 256), SoftRoce.anyPort().getAddress());
  }

  @BeforeEach
  void countErrors() {
    RxeCounters counters = new RxeCounters(deviceName);
    if (System.getenv("SOFTROCE_GUEST") != null) {
      assertThat(counters.available()).as("rxe counters readable in the guest").isTrue();
    }
    errorsBefore = counters.available() ? counters.errors() : Map.of();
  }

  /**
   * Shows what each test did to the counters in the test report (the back-pressure test's stalls
   * included), then requires that it did nothing.
   */
  @AfterEach
  void noReceiverNotReadyAndNoFailedSend(TestReporter report) {
    RxeCounters counters = new RxeCounters(deviceName);
    if (counters.available()) {
      Map<String, Long> errorsAfter = counters.errors();
      Map<String, String> moved = new TreeMap<>();
      errorsAfter.forEach(
          (name, value) -> moved.put(name, "+" + (value - errorsBefore.getOrDefault(name, 0L))));
      report.publishEntry(moved);
      assertThat(errorsAfter).isEqualTo(errorsBefore);
    }
  }
}
