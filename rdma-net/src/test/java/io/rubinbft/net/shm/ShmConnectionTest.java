package io.rubinbft.net.shm;

import static io.rubinbft.net.shm.RecordedCompletion.received;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Connection setup and teardown of the shm provider, the rdma_cm-like part. */
class ShmConnectionTest {

  private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

  @TempDir Path root;

  private final List<ShmVerbsDevice> devices = new ArrayList<>();

  @AfterEach
  void closeDevices() {
    devices.forEach(ShmVerbsDevice::close);
  }

  /** A device that checks peer liveness on every poll, so tests need no waiting. */
  private Endpoint endpoint() throws VerbsException {
    ShmOptions options =
        new ShmOptions(root, 1000, Duration.ZERO, ShmOptions.defaults(root).listenBacklog());
    ShmVerbsDevice device = ShmVerbsDevice.open(options);
    devices.add(device);
    return new Endpoint(device, 4, 4, 0, 4096);
  }

  @Test
  void privateDataTravelsWithTheRequestAndTheAnswer() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.device.connect(listener.localAddress(), client.spec, new byte[] {'i', 'd', '7'});
    server.device.pollConnectionEvents(server.events);
    server.events.requests.getFirst().accept(new byte[] {'o', 'k'});
    client.device.pollConnectionEvents(client.events);
    server.device.pollConnectionEvents(server.events);
    assertThat(server.events.events).containsExactly("requested id7", "established id7");
    assertThat(client.events.events).containsExactly("established ok");
  }

  @Test
  void privateDataBeyondTheLimitIsRefused() throws VerbsException {
    Endpoint client = endpoint();
    assertThat(client.device.maxPrivateDataBytes()).isEqualTo(56);
    assertThatThrownBy(() -> client.device.connect(ANY_PORT, client.spec, new byte[57]))
        .isInstanceOf(VerbsException.class)
        .hasMessage("private data is 57 bytes but at most 56 fit");
  }

  @Test
  void connectingWhereNobodyListensFails() throws VerbsException {
    Endpoint client = endpoint();
    client.device.connect(new InetSocketAddress("127.0.0.1", 7), client.spec, new byte[0]);
    client.device.pollConnectionEvents(client.events);
    assertThat(client.events.failures)
        .containsExactly("no shm listener at 127.0.0.1:7 under " + root);
  }

  @Test
  void aRejectedRequestFailsWithTheListenersReason() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.device.connect(listener.localAddress(), client.spec, new byte[0]);
    server.device.pollConnectionEvents(server.events);
    server.events.requests.getFirst().reject();
    client.device.pollConnectionEvents(client.events);
    assertThat(client.events.failures)
        .containsExactly(
            "rejected by the listener at 127.0.0.1:" + listener.localAddress().getPort());
  }

  @Test
  void aWithdrawnRequestCannotBeAccepted() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    PendingConnection outgoing =
        client.device.connect(listener.localAddress(), client.spec, new byte[0]);
    server.device.pollConnectionEvents(server.events);
    outgoing.reject();
    assertThatThrownBy(() -> server.events.requests.getFirst().accept(new byte[0]))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("the connector withdrew its request");
    client.device.pollConnectionEvents(client.events);
    assertThat(client.events.events).isEmpty();
  }

  @Test
  void aListenerThatClosesBeforeAnsweringFailsTheRequest() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.device.connect(listener.localAddress(), client.spec, new byte[0]);
    listener.close();
    client.device.pollConnectionEvents(client.events);
    assertThat(client.events.failures)
        .containsExactly(
            "the shm listener at 127.0.0.1:"
                + listener.localAddress().getPort()
                + " closed before answering");
  }

  @Test
  void aListenerClosedWhileHandingOutRequestsStopsAndItsRequestsFail() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint first = endpoint();
    Endpoint second = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    first.device.connect(listener.localAddress(), first.spec, new byte[0]);
    second.device.connect(listener.localAddress(), second.spec, new byte[0]);
    RecordingEvents closingOnFirst =
        new RecordingEvents() {
          @Override
          public void connectRequested(
              ConnectionListener at, PendingConnection request, byte[] privateData) {
            super.connectRequested(at, request, privateData);
            at.close();
          }
        };
    assertThat(server.device.pollConnectionEvents(closingOnFirst)).isEqualTo(1);
    first.device.pollConnectionEvents(first.events);
    second.device.pollConnectionEvents(second.events);
    String closed = "the shm listener at 127.0.0.1:" + listener.localAddress().getPort();
    assertThat(first.events.failures).singleElement().asString().startsWith(closed);
    assertThat(second.events.failures).singleElement().asString().startsWith(closed);
  }

  @Test
  void anAddressInUseIsRefusedAndFreedWhenItsListenerCloses() throws VerbsException {
    Endpoint first = endpoint();
    Endpoint second = endpoint();
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", 7000);
    ConnectionListener listener = first.device.listen(address, first.spec);
    assertThatThrownBy(() -> second.device.listen(address, second.spec))
        .isInstanceOf(VerbsException.class)
        .hasMessage("shm address 127.0.0.1:7000 is in use");
    listener.close();
    assertThat(second.device.listen(address, second.spec).localAddress()).isEqualTo(address);
  }

  @Test
  void loopbackAndWildcardAddressesNameTheSameEndpoint() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    server.device.listen(new InetSocketAddress("0.0.0.0", 7001), server.spec);
    client.device.connect(new InetSocketAddress("localhost", 7001), client.spec, new byte[0]);
    server.device.pollConnectionEvents(server.events);
    assertThat(server.events.requests).hasSize(1);
    assertThatThrownBy(
            () -> client.device.listen(new InetSocketAddress("127.0.0.1", 7001), client.spec))
        .isInstanceOf(VerbsException.class)
        .hasMessage("shm address 127.0.0.1:7001 is in use");
  }

  @Test
  void aCompletionQueueRefusesPairsBeyondItsCapacity() throws VerbsException {
    Endpoint client = endpoint();
    QueuePairSpec tooDeep =
        new QueuePairSpec(
            4 * Endpoint.PAIRS_PER_QUEUE + 1,
            4,
            0,
            client.sendCompletions,
            client.receiveCompletions);
    assertThatThrownBy(() -> client.device.connect(ANY_PORT, tooDeep, new byte[0]))
        .isInstanceOf(VerbsException.class)
        .hasMessage(
            "completion queue of capacity 32 cannot take 33 more work requests:"
                + " 0 are reserved by its queue pairs");
    for (int i = 0; i < Endpoint.PAIRS_PER_QUEUE; i++) {
      client.device.connect(ANY_PORT, client.spec, new byte[0]).queuePair().close();
    }
  }

  @Test
  void portZeroPicksAFreePort() throws VerbsException {
    Endpoint server = endpoint();
    int first = server.device.listen(ANY_PORT, server.spec).localAddress().getPort();
    int second = server.device.listen(ANY_PORT, server.spec).localAddress().getPort();
    assertThat(first).isPositive().isNotEqualTo(second);
  }

  @Test
  void sendsBeforeTheConnectionIsEstablishedAreRefused() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.pair =
        client.device.connect(listener.localAddress(), client.spec, new byte[0]).queuePair();
    assertThatThrownBy(() -> client.send(1, 0, "early"))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("is not connected yet");
  }

  @Test
  void receivesPostedBeforeAcceptCatchTheFirstMessages() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.pair =
        client.device.connect(listener.localAddress(), client.spec, new byte[0]).queuePair();
    client.postReceive(1, 0, 64);
    server.device.pollConnectionEvents(server.events);
    PendingConnection incoming = server.events.requests.getFirst();
    server.pair = incoming.queuePair();
    incoming.accept(new byte[0]);
    server.send(2, 0, "first");
    assertThat(client.pollReceives()).containsExactly(received(1, 5));
  }

  @Test
  void oneListenerServesManyConnectionsOnOneCompletionQueue() throws VerbsException {
    Endpoint server = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    List<Endpoint> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Endpoint client = endpoint();
      client.pair =
          client.device.connect(listener.localAddress(), client.spec, new byte[0]).queuePair();
      clients.add(client);
    }
    server.device.pollConnectionEvents(server.events);
    assertThat(server.events.requests).hasSize(3);
    List<Integer> pairs = new ArrayList<>();
    for (PendingConnection request : server.events.requests) {
      request.accept(new byte[0]);
      request
          .queuePair()
          .receiveRequests()
          .set(0, pairs.size(), server.memory, 64L * pairs.size(), 64, true, false);
      request.queuePair().postReceive(1);
      pairs.add(request.queuePair().number());
    }
    for (Endpoint client : clients) {
      client.device.pollConnectionEvents(client.events);
      client.send(9, 0, "from " + client.pair.number());
    }
    List<Integer> reporting = new ArrayList<>();
    server.receiveCompletions.poll((pair, id, opcode, status, length) -> reporting.add(pair), 10);
    assertThat(reporting).containsExactlyInAnyOrderElementsOf(pairs);
  }

  @Test
  void aClosedDeviceDisconnectsItsPeersAndAReconnectWorks() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.device.connect(listener.localAddress(), client.spec, new byte[0]);
    server.device.pollConnectionEvents(server.events);
    server.events.requests.getFirst().accept(new byte[0]);
    server.device.pollConnectionEvents(server.events);
    client.device.close();
    server.device.pollConnectionEvents(server.events);
    assertThat(server.events.events).last().asString().startsWith("disconnected");

    Endpoint again = endpoint();
    again.device.connect(listener.localAddress(), again.spec, new byte[0]);
    server.device.pollConnectionEvents(server.events);
    assertThat(server.events.requests).hasSize(2);
  }

  @Test
  void aClosedDeviceLeavesNoFilesBehind() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.device.connect(listener.localAddress(), client.spec, new byte[0]);
    server.device.pollConnectionEvents(server.events);
    server.events.requests.getFirst().accept(new byte[0]);
    client.device.close();
    server.device.close();
    devices.clear();
    try (var files = Files.list(root)) {
      assertThat(files.map(path -> path.getFileName().toString())).containsExactly("setup.lock");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aDirectoryTooLongForTheDoorbellSocketIsRefusedAndLeavesNothing() throws IOException {
    Path longRoot = root.resolve("d".repeat(120));

    assertThatThrownBy(() -> ShmVerbsDevice.open(ShmOptions.defaults(longRoot)))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("bytes but a Unix socket address holds at most 107")
        .hasMessageEndingWith("choose a shorter shm directory");
    try (var files = Files.list(longRoot)) {
      assertThat(files.map(path -> path.getFileName().toString())).containsExactly("setup.lock");
    }
  }

  @Test
  void aDisconnectIsReportedOnce() throws VerbsException {
    Endpoint server = endpoint();
    Endpoint client = endpoint();
    ConnectionListener listener = server.device.listen(ANY_PORT, server.spec);
    client.pair =
        client.device.connect(listener.localAddress(), client.spec, new byte[0]).queuePair();
    server.device.pollConnectionEvents(server.events);
    server.events.requests.getFirst().accept(new byte[0]);
    client.device.pollConnectionEvents(client.events);
    client.pair.disconnect();
    client.device.pollConnectionEvents(client.events);
    client.device.pollConnectionEvents(client.events);
    assertThat(client.events.disconnected).containsExactly(client.pair);
    assertThat(client.events.events).containsExactly("established ", "disconnected 0");
  }
}
