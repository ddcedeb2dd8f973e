package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.rdma.ConnectedPair.End;
import io.rubinbft.net.rdma.RecordedCompletions.Completion;
import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.MemorySegment;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real verbs on a real (Soft-RoCE) device: two queue pairs of one device connected through rdma_cm.
 * Runs inside the guest of scripts/rdma-vm-tests.sh; skipped with the reason on hosts without a
 * device.
 */
@Tag("rdma-vm")
class FfmVerbsDeviceVmTest {

  private static final int SLOT = 1024;

  private final long seed = System.nanoTime();
  private final Random random = new Random(seed);
  private FfmVerbsDevice device;
  private ConnectedPair pair;

  @BeforeEach
  void connect() throws VerbsException, UnknownHostException {
    device = SoftRoce.openDevice(RdmaOptions.defaults());
    pair = ConnectedPair.connect(device, bytes(20), bytes(40));
  }

  @AfterEach
  void close() {
    if (device != null) {
      pair.close();
      device.close();
    }
  }

  @Test
  void namesTheDeviceAndNumbersTheQueuePairs() {
    assertThat(device.name()).isNotEmpty();
    assertThat(pair.client.queuePair().number()).isNotEqualTo(pair.server.queuePair().number());
  }

  @Test
  void sendsMessagesBothWaysIntoPostedReceives() throws VerbsException {
    for (int round = 0; round < 10; round++) {
      byte[] request = bytes(1 + random.nextInt(SLOT));
      byte[] reply = bytes(1 + random.nextInt(SLOT));
      assertThat(transfer(pair.client, pair.server, request, round))
          .as("seed %d", seed)
          .isEqualTo(request);
      assertThat(transfer(pair.server, pair.client, reply, round))
          .as("seed %d", seed)
          .isEqualTo(reply);
    }
  }

  @Test
  void postsBatchesAndSignalsOnlyWhenAsked() throws VerbsException {
    int batch = ConnectedPair.DEPTH;
    for (int i = 0; i < batch; i++) {
      pair.server
          .queuePair()
          .receiveRequests()
          .set(i, 100 + i, pair.server.memory(), (long) i * SLOT, SLOT, false, false);
      write(pair.client, i, bytes(8 + i));
      pair.client
          .queuePair()
          .sendRequests()
          .set(i, 200 + i, pair.client.memory(), (long) i * SLOT, 8 + i, i == batch - 1, false);
    }
    pair.server.queuePair().postReceive(batch);
    pair.client.queuePair().postSend(batch);

    List<Completion> received = pair.server.receives().await(batch);
    for (int i = 0; i < batch; i++) {
      assertThat(received.get(i))
          .isEqualTo(
              new Completion(
                  pair.server.queuePair().number(),
                  100 + i,
                  CompletionOpcode.RECEIVE,
                  CompletionStatus.SUCCESS,
                  8 + i));
    }
    assertThat(pair.client.sends().await(1))
        .singleElement()
        .extracting(Completion::workRequestId)
        .isEqualTo(200L + batch - 1);
    assertThat(pair.client.sends().drain()).hasSize(1);
  }

  @Test
  void sendsSmallMessagesInline() throws VerbsException {
    byte[] message = bytes(ConnectedPair.MAX_INLINE);
    postReceive(pair.server, 0);
    write(pair.client, 0, message);
    pair.client
        .queuePair()
        .sendRequests()
        .set(0, 7, pair.client.memory(), 0, message.length, true, true);
    pair.client.queuePair().postSend(1);
    // an inline send's bytes are copied at post time: overwriting them now must not matter
    pair.client.memory().segment().fill((byte) 0);

    assertThat(pair.client.sends().await(1).getFirst().status())
        .isEqualTo(CompletionStatus.SUCCESS);
    assertThat(pair.server.receives().await(1).getFirst().bytes()).isEqualTo(message.length);
    assertThat(read(pair.server, 0, message.length)).isEqualTo(message);
  }

  @Test
  void refusesInlineSendsBeyondThePairsLimit() {
    assertThatThrownBy(
            () ->
                pair.client
                    .queuePair()
                    .sendRequests()
                    .set(0, 1, pair.client.memory(), 0, ConnectedPair.MEMORY_BYTES, true, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inline send of 65536 bytes exceeds");
  }

  @Test
  void reportsAMessageLongerThanThePostedReceive() throws VerbsException {
    pair.server.queuePair().receiveRequests().set(0, 1, pair.server.memory(), 0, 16, false, false);
    pair.server.queuePair().postReceive(1);
    pair.client.queuePair().sendRequests().set(0, 2, pair.client.memory(), 0, 64, true, false);
    pair.client.queuePair().postSend(1);

    Completion receive = pair.server.receives().await(1).getFirst();
    // hardware reports IBV_WC_LOC_LEN_ERR; Soft-RoCE fails it with a status of its own
    assertThat(receive.status())
        .isIn(CompletionStatus.LOCAL_LENGTH_ERROR, CompletionStatus.OTHER_ERROR);
    assertThat(receive.opcode()).isEqualTo(CompletionOpcode.RECEIVE);
  }

  @Test
  void disconnectFlushesThePostedReceivesAndReachesThePeer() throws VerbsException {
    for (int i = 0; i < 4; i++) {
      pair.client
          .queuePair()
          .receiveRequests()
          .set(i, 10 + i, pair.client.memory(), (long) i * SLOT, SLOT, false, false);
    }
    pair.client.queuePair().postReceive(4);
    pair.client.queuePair().disconnect();

    assertThat(pair.client.receives().await(4))
        .extracting(Completion::workRequestId, Completion::opcode, Completion::status)
        .containsExactly(flushed(10), flushed(11), flushed(12), flushed(13));
    pair.awaitDisconnects(1);
    assertThat(pair.events.disconnected).containsExactly(pair.server.queuePair());
    // closing the peer's pair answers the disconnect request: the initiator hears of it at once
    pair.server.queuePair().close();
    pair.awaitDisconnects(2);
    assertThat(pair.events.disconnected.getLast()).isSameAs(pair.client.queuePair());
    assertThatThrownBy(() -> pair.server.queuePair().postReceive(1))
        .isInstanceOf(VerbsException.class)
        .hasMessageEndingWith("is closed");
  }

  private static org.assertj.core.groups.Tuple flushed(long id) {
    return org.assertj.core.groups.Tuple.tuple(
        id, CompletionOpcode.RECEIVE, CompletionStatus.FLUSHED);
  }

  /** Sends {@code message} from one end into a receive posted at the other; returns what landed. */
  private byte[] transfer(End from, End to, byte[] message, int round) throws VerbsException {
    postReceive(to, round);
    write(from, 0, message);
    from.queuePair().sendRequests().set(0, round, from.memory(), 0, message.length, true, false);
    from.queuePair().postSend(1);
    Completion sent = from.sends().await(round + 1).get(round);
    assertThat(sent.status()).isEqualTo(CompletionStatus.SUCCESS);
    assertThat(sent.opcode()).isEqualTo(CompletionOpcode.SEND);
    Completion received = to.receives().await(round + 1).get(round);
    assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
    assertThat(received.workRequestId()).isEqualTo(1000 + round);
    return read(to, 0, received.bytes());
  }

  private static void postReceive(End end, int round) throws VerbsException {
    end.queuePair().receiveRequests().set(0, 1000 + round, end.memory(), 0, SLOT, false, false);
    end.queuePair().postReceive(1);
  }

  private static void write(End end, int slot, byte[] bytes) {
    MemorySegment.copy(
        bytes, 0, end.memory().segment(), JAVA_BYTE, (long) slot * SLOT, bytes.length);
  }

  private static byte[] read(End end, int slot, int length) {
    return end.memory().segment().asSlice((long) slot * SLOT, length).toArray(JAVA_BYTE);
  }

  private byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
