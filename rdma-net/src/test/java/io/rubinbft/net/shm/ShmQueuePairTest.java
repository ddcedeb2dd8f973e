package io.rubinbft.net.shm;

import static io.rubinbft.net.shm.RecordedCompletion.received;
import static io.rubinbft.net.shm.RecordedCompletion.sent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RC queue-pair semantics of the shm provider, one rule per test, on two devices in one process.
 */
class ShmQueuePairTest {

  @TempDir Path root;

  private ConnectedPair connection;

  @AfterEach
  void closeDevices() {
    if (connection != null) {
      connection.close();
    }
  }

  private ConnectedPair connect(int depth) throws VerbsException {
    connection = ConnectedPair.open(root, depth);
    return connection;
  }

  private ConnectedPair connect(int depth, int receiverNotReadyRetries) throws VerbsException {
    ShmOptions options =
        ShmOptions.defaults(root).withReceiverNotReadyRetries(receiverNotReadyRetries);
    connection = ConnectedPair.open(options, depth, 64);
    return connection;
  }

  @Test
  void messagesArriveInSendOrderInTheBuffersOfReceivesInPostOrder() throws VerbsException {
    ConnectedPair c = connect(8);
    for (int i = 0; i < 5; i++) {
      c.server.postReceive(100 + i, 1000L * i, 100);
    }
    for (int i = 0; i < 5; i++) {
      c.client.send(i, 64L * i, "message " + i);
    }
    assertThat(c.client.pollSends()).containsExactly(sent(0), sent(1), sent(2), sent(3), sent(4));
    assertThat(c.server.pollReceives())
        .containsExactly(
            received(100, 9),
            received(101, 9),
            received(102, 9),
            received(103, 9),
            received(104, 9));
    for (int i = 0; i < 5; i++) {
      assertThat(c.server.text(1000L * i, 9)).isEqualTo("message " + i);
    }
  }

  @Test
  void oneSendConsumesExactlyOnePostedReceive() throws VerbsException {
    ConnectedPair c = connect(8);
    c.server.postReceive(1, 0, 100);
    c.server.postReceive(2, 100, 100);
    c.server.postReceive(3, 200, 100);
    c.client.send(10, 0, "a");
    assertThat(c.server.pollReceives()).containsExactly(received(1, 1));
    c.client.send(11, 0, "bb");
    c.client.send(12, 0, "ccc");
    assertThat(c.server.pollReceives()).containsExactly(received(2, 2), received(3, 3));
    assertThat(c.server.text(100, 2)).isEqualTo("bb");
    assertThat(c.server.text(200, 3)).isEqualTo("ccc");
  }

  @Test
  void bothDirectionsWorkOnOnePair() throws VerbsException {
    ConnectedPair c = connect(4);
    c.client.postReceive(7, 500, 50);
    c.server.postReceive(8, 500, 50);
    c.client.send(1, 0, "ping");
    c.server.pollReceives();
    c.server.send(2, 0, "pong");
    assertThat(c.client.pollReceives()).containsExactly(received(7, 4));
    assertThat(c.client.text(500, 4)).isEqualTo("pong");
  }

  @Test
  void aSendWaitsForAReceivePostedWithinTheRetryLimit() throws VerbsException {
    ConnectedPair c = connect(4, 10);
    c.client.send(1, 0, "late");
    for (int pass = 0; pass < 5; pass++) {
      assertThat(c.client.pollSends()).isEmpty();
    }
    c.server.postReceive(9, 0, 16);
    assertThat(c.client.pollSends()).containsExactly(sent(1));
    assertThat(c.server.pollReceives()).containsExactly(received(9, 4));
  }

  @Test
  void aSendWithNoReceivePostedFailsThePairAfterTheRetryLimit() throws VerbsException {
    int retries = 3;
    ConnectedPair c = connect(4, retries);
    c.client.send(1, 0, "nobody listens"); // pass 1
    c.client.send(2, 0, "behind it"); // pass 2
    for (int pass = 3; pass <= retries; pass++) {
      assertThat(c.client.pollSends()).as("pass %d", pass).isEmpty();
    }
    assertThat(c.client.pollSends())
        .containsExactly(
            RecordedCompletion.of(1, CompletionOpcode.SEND, CompletionStatus.RECEIVER_NOT_READY),
            RecordedCompletion.of(2, CompletionOpcode.SEND, CompletionStatus.FLUSHED));
    c.pollConnectionEvents();
    assertThat(c.client.events.disconnected).containsExactly(c.client.pair);
    assertThat(c.server.events.disconnected).containsExactly(c.server.pair);
  }

  @Test
  void aMessageLongerThanTheReceiveBufferFailsBothSides() throws VerbsException {
    ConnectedPair c = connect(4);
    c.server.postReceive(1, 0, 4);
    c.server.postReceive(2, 100, 100);
    c.client.send(5, 0, "too long for four bytes");
    c.client.send(6, 0, "fits");
    assertThat(c.server.pollReceives())
        .containsExactly(
            RecordedCompletion.of(1, CompletionOpcode.RECEIVE, CompletionStatus.LOCAL_LENGTH_ERROR),
            RecordedCompletion.of(2, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
    assertThat(c.client.pollSends())
        .containsExactly(
            RecordedCompletion.of(
                5, CompletionOpcode.SEND, CompletionStatus.REMOTE_INVALID_REQUEST),
            RecordedCompletion.of(6, CompletionOpcode.SEND, CompletionStatus.FLUSHED));
    assertThat(c.server.text(0, 4)).isEqualTo("\0\0\0\0");
  }

  @Test
  void unsignaledSendsRetireSilentlyWithTheNextSignaledOne() throws VerbsException {
    ConnectedPair c = connect(4);
    for (int i = 0; i < 4; i++) {
      c.server.postReceive(100 + i, 100L * i, 100);
    }
    QueuePair pair = c.client.pair;
    for (int i = 0; i < 4; i++) {
      pair.sendRequests().set(i, i, c.client.memory, 0, 8, i == 3, false);
    }
    pair.postSend(4);
    assertThat(c.client.pollSends()).containsExactly(sent(3));
    assertThat(c.server.pollReceives()).hasSize(4);
    for (int i = 0; i < 4; i++) {
      c.server.postReceive(200 + i, 100L * i, 100);
      pair.sendRequests().set(i, 10 + i, c.client.memory, 0, 8, false, false);
    }
    pair.postSend(4);
    assertThat(c.client.pollSends()).isEmpty();
    assertThat(c.server.pollReceives()).hasSize(4);
    assertThatThrownBy(() -> pair.postSend(1))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("send queue of queue pair")
        .hasMessageContaining("is full: 4 of 4 outstanding");
  }

  @Test
  void aBatchOfPostsIsDeliveredWhole() throws VerbsException {
    ConnectedPair c = connect(16);
    QueuePair server = c.server.pair;
    for (int i = 0; i < 16; i++) {
      server.receiveRequests().set(i, 100 + i, c.server.memory, 64L * i, 64, true, false);
    }
    server.postReceive(16);
    QueuePair client = c.client.pair;
    for (int i = 0; i < 16; i++) {
      c.client.bytes().set(ValueLayout.JAVA_BYTE, i, (byte) i);
      client.sendRequests().set(i, i, c.client.memory, i, 1, i == 15, false);
    }
    client.postSend(16);
    assertThat(c.client.pollSends()).containsExactly(sent(15));
    assertThat(c.server.pollReceives()).hasSize(16).allMatch(r -> r.byteLength() == 1);
    for (int i = 0; i < 16; i++) {
      assertThat(c.server.bytes().get(ValueLayout.JAVA_BYTE, 64L * i)).isEqualTo((byte) i);
    }
  }

  @Test
  void pollHandsOutAtMostTheAskedNumberAndKeepsTheRest() throws VerbsException {
    ConnectedPair c = connect(8);
    for (int i = 0; i < 6; i++) {
      c.server.postReceive(i, 100L * i, 100);
      c.client.send(i, 0, "x");
    }
    List<Long> ids = new ArrayList<>();
    assertThat(c.server.receiveCompletions.poll((q, id, o, s, l) -> ids.add(id), 4)).isEqualTo(4);
    assertThat(c.server.receiveCompletions.poll((q, id, o, s, l) -> ids.add(id), 4)).isEqualTo(2);
    assertThat(ids).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void anInlineSendCarriesTheBytesAsTheyWereAtPost() throws VerbsException {
    ConnectedPair c = connect(4);
    MemorySegment source = c.client.bytes();
    source.setString(0, "before");
    QueuePair client = c.client.pair;
    client.sendRequests().set(0, 1, c.client.memory, 0, 7, true, true);
    client.postSend(1); // no receive posted yet: delivery waits, the inline copy does not
    source.setString(0, "after!");
    c.server.postReceive(1, 0, 64);
    assertThat(c.client.pollSends()).containsExactly(sent(1));
    assertThat(c.server.pollReceives()).containsExactly(received(1, 7));
    assertThat(c.server.text(0, 6)).isEqualTo("before");
  }

  @Test
  void anInlineSendBeyondTheInlineLimitIsRefused() throws VerbsException {
    ConnectedPair c = connect(4);
    assertThatThrownBy(
            () -> c.client.pair.sendRequests().set(0, 1, c.client.memory, 0, 65, true, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inline send of 65 bytes exceeds the inline limit of 64");
  }

  @Test
  void postingMoreReceivesThanTheDepthIsRefused() throws VerbsException {
    ConnectedPair c = connect(2);
    c.server.postReceive(1, 0, 8);
    c.server.postReceive(2, 8, 8);
    assertThatThrownBy(() -> c.server.postReceive(3, 16, 8))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("is full: 2 of 2 posted, 1 more posted");
  }

  @Test
  void disconnectFlushesOutstandingRequestsOnBothSides() throws VerbsException {
    ConnectedPair c = connect(4);
    c.client.postReceive(21, 0, 8);
    c.client.postReceive(22, 8, 8);
    c.server.postReceive(31, 0, 8);
    c.client.send(1, 100, "one");
    assertThat(c.server.pollReceives()).containsExactly(received(31, 3));
    c.client.send(2, 100, "two");
    c.client.pair.disconnect();
    assertThat(c.client.pollSends())
        .containsExactly(
            sent(1), RecordedCompletion.of(2, CompletionOpcode.SEND, CompletionStatus.FLUSHED));
    assertThat(c.client.pollReceives())
        .containsExactly(
            RecordedCompletion.of(21, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED),
            RecordedCompletion.of(22, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
    c.server.postReceive(32, 8, 8);
    assertThat(c.server.pollReceives())
        .containsExactly(
            RecordedCompletion.of(32, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
    c.pollConnectionEvents();
    assertThat(c.client.events.disconnected).containsExactly(c.client.pair);
    assertThat(c.server.events.disconnected).containsExactly(c.server.pair);
  }

  @Test
  void postsAfterAnErrorCompleteFlushed() throws VerbsException {
    ConnectedPair c = connect(4);
    c.client.pair.disconnect();
    c.client.send(1, 0, "late");
    c.client.postReceive(2, 0, 8);
    assertThat(c.client.pollSends())
        .containsExactly(RecordedCompletion.of(1, CompletionOpcode.SEND, CompletionStatus.FLUSHED));
    assertThat(c.client.pollReceives())
        .containsExactly(
            RecordedCompletion.of(2, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
  }

  @Test
  void closingAPairDisconnectsThePeer() throws VerbsException {
    ConnectedPair c = connect(4);
    c.server.postReceive(1, 0, 8);
    c.client.pair.close();
    assertThat(c.server.pollReceives())
        .containsExactly(
            RecordedCompletion.of(1, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
    c.pollConnectionEvents();
    assertThat(c.server.events.disconnected).containsExactly(c.server.pair);
    assertThat(c.client.events.disconnected).isEmpty();
    assertThatThrownBy(() -> c.client.pair.postReceive(0))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("is closed");
  }

  @Test
  void aMessageSentBeforeTheDisconnectIsStillReceived() throws VerbsException {
    ConnectedPair c = connect(4);
    c.server.postReceive(1, 0, 8);
    c.server.postReceive(2, 8, 8);
    c.client.send(5, 0, "last");
    c.client.pair.disconnect();
    assertThat(c.server.pollReceives())
        .containsExactly(
            received(1, 4),
            RecordedCompletion.of(2, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED));
  }

  @Test
  void aReceiveNamingMemoryThePeerDoesNotHaveFailsBothSides() throws VerbsException {
    ConnectedPair c = connect(4);
    c.server.postReceive(1, 0, 64);
    MemorySegment serverFile = ((ShmQueuePair) c.server.pair).ownFile().segment();
    long slot = QueuePairFileDescriptor.RECEIVE_SLOTS_OFFSET;
    serverFile.set(ValueLayout.JAVA_INT, slot + QueuePairFileDescriptor.SLOT_REGION, 999);
    c.client.send(5, 0, "where to?");
    assertThat(c.client.pollSends())
        .containsExactly(
            RecordedCompletion.of(
                5, CompletionOpcode.SEND, CompletionStatus.REMOTE_INVALID_REQUEST));
    assertThat(c.server.pollReceives())
        .containsExactly(
            RecordedCompletion.of(1, CompletionOpcode.RECEIVE, CompletionStatus.OTHER_ERROR));
  }

  @Test
  void aPeerClaimingMoreDeliveriesThanWerePostedFailsThePairWithoutInventingCompletions()
      throws VerbsException {
    ConnectedPair c = connect(4);
    c.server.postReceive(1, 0, 64);
    MemorySegment serverFile = ((ShmQueuePair) c.server.pair).ownFile().segment();
    serverFile.set(ValueLayout.JAVA_LONG, QueuePairFileDescriptor.RECEIVES_DELIVERED_OFFSET, 5);
    List<RecordedCompletion> completions = c.server.pollReceives();
    assertThat(completions).extracting(RecordedCompletion::workRequestId).containsExactly(1L);
    assertThat(completions.getFirst().status()).isNotEqualTo(CompletionStatus.SUCCESS);
    c.pollConnectionEvents();
    assertThat(c.server.events.disconnected).containsExactly(c.server.pair);
  }

  /**
   * An offset near the top of the long range: offset plus capacity overflows to a negative sum,
   * which a bounds check written as {@code offset + capacity > size} lets through to the copy.
   */
  @Test
  void aReceiveWhoseOffsetOverflowsWithItsCapacityFailsBothSides() throws VerbsException {
    ConnectedPair c = connect(4);
    c.server.postReceive(1, 0, 64);
    MemorySegment serverFile = ((ShmQueuePair) c.server.pair).ownFile().segment();
    long slot = QueuePairFileDescriptor.RECEIVE_SLOTS_OFFSET;
    serverFile.set(
        ValueLayout.JAVA_LONG, slot + QueuePairFileDescriptor.SLOT_OFFSET, Long.MAX_VALUE - 10);
    c.client.send(5, 0, "where to?");
    assertThat(c.client.pollSends())
        .containsExactly(
            RecordedCompletion.of(
                5, CompletionOpcode.SEND, CompletionStatus.REMOTE_INVALID_REQUEST));
    assertThat(c.server.pollReceives())
        .containsExactly(
            RecordedCompletion.of(1, CompletionOpcode.RECEIVE, CompletionStatus.OTHER_ERROR));
  }

  /**
   * A delivered count with the sign bit set (and not the closed bit) names a negative position: a
   * slot before the ring, outside the file for a deep ring. The sender treats it as a faulty peer.
   */
  @Test
  void aNegativeDeliveredCountInThePeersRingFailsThePairWithoutThrowing() throws VerbsException {
    ConnectedPair c = connect(4096);
    c.server.postReceive(1, 0, 64);
    MemorySegment serverFile = ((ShmQueuePair) c.server.pair).ownFile().segment();
    serverFile.set(
        ValueLayout.JAVA_LONG,
        QueuePairFileDescriptor.RECEIVES_DELIVERED_OFFSET,
        Long.MIN_VALUE + 1);
    c.client.send(5, 0, "where to?");
    assertThat(c.client.pollSends())
        .extracting(RecordedCompletion::status)
        .containsExactly(CompletionStatus.REMOTE_INVALID_REQUEST);
  }
}
