package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.rdma.RecordedCompletions.Completion;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Connection setup failures and receiver-not-ready on a real (Soft-RoCE) device. */
@Tag("rdma-vm")
class ConnectionSetupVmTest {

  @Test
  void reportsARejectedRequestToTheConnectingSide() throws VerbsException, UnknownHostException {
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults())) {
      QueuePairSpec spec = spec(device);
      ConnectionListener listener = device.listen(SoftRoce.anyPort(), spec);
      RecordedEvents events = new RecordedEvents();
      PendingConnection outgoing =
          device.connect(listener.localAddress(), spec(device), new byte[0]);
      SoftRoce.awaitUntil(
          "the request",
          () -> !events.requests.isEmpty(),
          () -> device.pollConnectionEvents(events));
      events.requests.getFirst().connection().reject();
      SoftRoce.awaitUntil(
          "the rejection",
          () -> !events.failures.isEmpty(),
          () -> device.pollConnectionEvents(events));

      assertThat(events.failures.getFirst().connection()).isSameAs(outgoing);
      assertThat(events.failures.getFirst().reason())
          .startsWith("connection to " + listener.localAddress() + " was rejected");
      assertThat(events.established).isEmpty();
    }
  }

  @Test
  void reportsAConnectionToAPortNobodyListensOn() throws VerbsException, UnknownHostException {
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults())) {
      InetSocketAddress nobody = new InetSocketAddress(SoftRoce.anyPort().getAddress(), 7);
      RecordedEvents events = new RecordedEvents();
      device.connect(nobody, spec(device), new byte[0]);
      SoftRoce.awaitUntil(
          "the failure",
          () -> !events.failures.isEmpty(),
          () -> device.pollConnectionEvents(events));
      assertThat(events.failures.getFirst().reason()).startsWith("connection to " + nobody);
    }
  }

  @Test
  void failsASendThatFindsNoReceivePostedWithReceiverNotReady()
      throws VerbsException, UnknownHostException {
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults().withRnrRetryCount(0));
        ConnectedPair pair = ConnectedPair.connect(device, new byte[0], new byte[0])) {
      RxeCounters counters = new RxeCounters(device.name());
      long rnrBefore = counters.available() ? receiverNotReadyNaks(counters) : 0;
      pair.client.queuePair().sendRequests().set(0, 1, pair.client.memory(), 0, 100, true, false);
      pair.client.queuePair().postSend(1);

      assertThat(pair.client.sends().await(1).getFirst().status())
          .isEqualTo(CompletionStatus.RECEIVER_NOT_READY);
      assertThat(pair.server.receives().drain()).isEmpty();
      // the counters the channel contract run checks do see receiver-not-ready
      // (sysfs caches hardware counters briefly, hence the wait)
      if (counters.available()) {
        SoftRoce.awaitUntil(
            "rxe's receiver-not-ready counters to move",
            () -> receiverNotReadyNaks(counters) > rnrBefore,
            () -> {});
      }
    }
  }

  @Test
  void servesSeveralConnectionsOnSharedCompletionQueues()
      throws VerbsException, UnknownHostException {
    int connections = 3;
    try (FfmVerbsDevice device = SoftRoce.openDevice(RdmaOptions.defaults())) {
      // one queue for the server's sends and receives of all connections, as a selector has
      CompletionQueue shared = device.createCompletionQueue(connections * 8);
      ConnectionListener listener =
          device.listen(SoftRoce.anyPort(), new QueuePairSpec(4, 4, 0, shared, shared));
      RecordedEvents events = new RecordedEvents();
      List<PendingConnection> clients = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        clients.add(device.connect(listener.localAddress(), spec(device), new byte[] {(byte) i}));
      }
      SoftRoce.awaitUntil(
          "the requests",
          () -> events.requests.size() == connections,
          () -> device.pollConnectionEvents(events));
      RegisteredMemory memory = device.register(4096);
      for (RecordedEvents.Request request : events.requests) {
        QueuePair server = request.connection().queuePair();
        server.receiveRequests().set(0, request.privateData()[0], memory, 0, 64, false, false);
        server.postReceive(1);
        request.connection().accept(new byte[0]);
      }
      SoftRoce.awaitUntil(
          "every connection established",
          () -> events.established.size() == 2 * connections,
          () -> device.pollConnectionEvents(events));
      for (PendingConnection client : clients) {
        client.queuePair().sendRequests().set(0, 0, memory, 1024, 8, false, false);
        client.queuePair().postSend(1);
      }

      Map<Integer, Long> receivedByQueuePair = new HashMap<>();
      for (Completion completion : new RecordedCompletions(shared).await(connections)) {
        assertThat(completion.opcode()).isEqualTo(CompletionOpcode.RECEIVE);
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        receivedByQueuePair.put(completion.queuePair(), completion.workRequestId());
      }
      Map<Integer, Long> expected = new HashMap<>();
      events.requests.forEach(
          r -> expected.put(r.connection().queuePair().number(), (long) r.privateData()[0]));
      assertThat(receivedByQueuePair).isEqualTo(expected);
    }
  }

  private static long receiverNotReadyNaks(RxeCounters counters) {
    Map<String, Long> errors = counters.errors();
    return errors.get("rcvd_rnr_err")
        + errors.get("send_rnr_err")
        + errors.get("retry_rnr_exceeded_err");
  }

  private static QueuePairSpec spec(FfmVerbsDevice device) throws VerbsException {
    CompletionQueue queue = device.createCompletionQueue(8);
    return new QueuePairSpec(4, 4, 0, queue, queue);
  }
}
