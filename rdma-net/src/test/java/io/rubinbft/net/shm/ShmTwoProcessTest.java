package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two processes talking through mapped files: this JVM and a child JVM ({@link ShmEchoPeer})
 * started with the same java binary and class path. Timeouts only guard against a hang.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ShmTwoProcessTest {

  private static final int PORT = 7100;

  @TempDir Path root;

  private final List<ShmVerbsDevice> devices = new ArrayList<>();
  private EchoChild child;

  @AfterEach
  void cleanUp() {
    if (child != null) {
      child.close();
    }
    devices.forEach(ShmVerbsDevice::close);
  }

  private Endpoint endpoint(Duration livenessInterval) throws VerbsException {
    ShmVerbsDevice device =
        ShmVerbsDevice.open(ShmOptions.defaults(root).withLivenessCheckInterval(livenessInterval));
    devices.add(device);
    return new Endpoint(device, ShmEchoPeer.DEPTH, ShmEchoPeer.DEPTH, 0, 1 << 20);
  }

  @Test
  void messagesMakeTheRoundTripThroughAnotherProcess() throws Exception {
    Endpoint endpoint = endpoint(Duration.ofMillis(100));
    child = EchoChild.start(root, PORT, ShmEchoPeer.SLOT_BYTES);
    child.connect(endpoint);
    long seed = System.nanoTime();
    System.out.println("ShmTwoProcessTest seed=" + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      byte[] message = new byte[1 + random.nextInt(ShmEchoPeer.SLOT_BYTES)];
      random.nextBytes(message);
      assertThat(echo(endpoint, round, message))
          .as("round %d, seed %d", round, seed)
          .isEqualTo(message);
    }
    endpoint.pair.disconnect();
    assertThat(child.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.process.exitValue()).as("child exit status; see child.log").isZero();
  }

  /** Sends {@code message} and returns what comes back, polling while it waits. */
  static byte[] echo(Endpoint endpoint, long id, byte[] message) throws VerbsException {
    postEcho(endpoint, id, message);
    List<RecordedCompletion> received = new ArrayList<>();
    while (received.isEmpty()) {
      received.addAll(endpoint.pollReceives());
      endpoint
          .pollSends()
          .forEach(sent -> assertThat(sent.status()).isEqualTo(CompletionStatus.SUCCESS));
      Thread.yield();
    }
    assertThat(received).containsExactly(RecordedCompletion.received(id, message.length));
    return echoed(endpoint, message.length);
  }

  /** Posts the receive for the echo of {@code message}, then sends it. */
  private static void postEcho(Endpoint endpoint, long id, byte[] message) throws VerbsException {
    endpoint.postReceive(id, ShmEchoPeer.SLOT_BYTES, ShmEchoPeer.SLOT_BYTES);
    MemorySegment.copy(message, 0, endpoint.bytes(), ValueLayout.JAVA_BYTE, 0, message.length);
    endpoint.pair.sendRequests().set(0, id, endpoint.memory, 0, message.length, true, false);
    endpoint.pair.postSend(1);
  }

  private static byte[] echoed(Endpoint endpoint, int length) {
    return endpoint.bytes().asSlice(ShmEchoPeer.SLOT_BYTES, length).toArray(ValueLayout.JAVA_BYTE);
  }

  /**
   * This side sleeps in its event channel with no timeout and liveness probes an hour apart: only
   * the child process's doorbell ring can wake it for the echo.
   */
  @Test
  void anEchoFromAnotherProcessWakesASleepingDevice() throws Exception {
    Endpoint endpoint = endpoint(Duration.ofHours(1));
    child = EchoChild.start(root, PORT, ShmEchoPeer.SLOT_BYTES);
    child.connect(endpoint);
    for (int round = 0; round < 20; round++) {
      byte[] message = ("round " + round).getBytes(StandardCharsets.UTF_8);
      postEcho(endpoint, round, message);
      List<RecordedCompletion> completions = new ArrayList<>();
      // The send and the echo's receive complete on different queues, in either order (as on an
      // RDMA device): under load the receive may be polled first.
      while (completions.stream().noneMatch(c -> c.opcode() == CompletionOpcode.RECEIVE)
          || completions.stream().noneMatch(c -> c.opcode() == CompletionOpcode.SEND)) {
        endpoint.sleepUntilAnything(completions);
      }
      assertThat(completions)
          .containsExactlyInAnyOrder(
              RecordedCompletion.sent(round), RecordedCompletion.received(round, message.length));
      assertThat(echoed(endpoint, message.length)).isEqualTo(message);
    }
  }

  /**
   * A killed child's doorbell connection hangs up, which wakes this sleeping side and makes it
   * probe at once, although its next scheduled probe is an hour away.
   */
  @Test
  void aSleepingDeviceLearnsOfAKilledPeerFromItsDoorbellHangingUp() throws Exception {
    Endpoint endpoint = endpoint(Duration.ofHours(1));
    child = EchoChild.start(root, PORT, ShmEchoPeer.SLOT_BYTES);
    child.connect(endpoint);
    assertThat(echo(endpoint, 1, new byte[] {1, 2, 3})).containsExactly(1, 2, 3);

    child.process.destroyForcibly().waitFor();
    List<RecordedCompletion> completions = new ArrayList<>();
    while (endpoint.events.disconnected.isEmpty()) {
      endpoint.sleepUntilAnything(completions);
    }
    assertThat(endpoint.events.disconnected).containsExactly(endpoint.pair);
  }

  @Test
  void aKilledPeerIsReportedDisconnectedAndItsFilesAndAddressAreReclaimed() throws Exception {
    Endpoint endpoint = endpoint(Duration.ZERO);
    child = EchoChild.start(root, PORT, ShmEchoPeer.SLOT_BYTES);
    child.connect(endpoint);
    assertThat(echo(endpoint, 1, new byte[] {1, 2, 3})).containsExactly(1, 2, 3);
    assertThat(deviceDirectories()).hasSize(2);

    child.process.destroyForcibly().waitFor();
    while (endpoint.events.disconnected.isEmpty()) {
      endpoint.device.pollConnectionEvents(endpoint.events);
      Thread.yield();
    }
    assertThat(endpoint.events.disconnected).containsExactly(endpoint.pair);

    Endpoint next = endpoint(Duration.ZERO);
    assertThat(deviceDirectories()).as("the parent's and the new device's").hasSize(2);
    InetSocketAddress childAddress = new InetSocketAddress("127.0.0.1", PORT);
    assertThat(next.device.listen(childAddress, next.spec).localAddress()).isEqualTo(childAddress);
  }

  private List<Path> deviceDirectories() throws IOException {
    try (Stream<Path> files = Files.list(root)) {
      return files.filter(path -> path.getFileName().toString().startsWith("dev-")).toList();
    }
  }
}
