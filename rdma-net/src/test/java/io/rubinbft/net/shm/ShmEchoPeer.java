package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionOpcode;
import io.rubinbft.net.verbs.CompletionStatus;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The child process of {@link ShmTwoProcessTest}: listens at {@code 127.0.0.1:PORT} under {@code
 * ROOT}, accepts one connection and echoes every message back until the connection ends, then exits
 * 0 (any failure exits non-zero).
 */
public final class ShmEchoPeer implements ConnectionEventHandler {

  static final int DEPTH = 16;
  static final int SLOT_BYTES = 4096;

  private final Endpoint endpoint;
  private final int slotBytes;
  private boolean finished;

  private ShmEchoPeer(Endpoint endpoint, int slotBytes) {
    this.endpoint = endpoint;
    this.slotBytes = slotBytes;
  }

  public static void main(String[] args) throws VerbsException {
    Path root = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    int slotBytes = args.length > 2 ? Integer.parseInt(args[2]) : SLOT_BYTES;
    try (ShmVerbsDevice device = ShmVerbsDevice.open(ShmOptions.defaults(root))) {
      ShmEchoPeer peer =
          new ShmEchoPeer(new Endpoint(device, DEPTH, DEPTH, 0, 2L * DEPTH * slotBytes), slotBytes);
      device.listen(new InetSocketAddress("127.0.0.1", port), peer.endpoint.spec);
      while (!peer.finished) {
        device.pollConnectionEvents(peer);
        if (peer.endpoint.pair != null) {
          peer.endpoint.receiveCompletions.poll(peer::echo, DEPTH);
          peer.endpoint.sendCompletions.poll(ShmEchoPeer::checkSent, DEPTH);
        }
        Thread.yield();
      }
    }
  }

  private void echo(
      int pair, long slot, CompletionOpcode opcode, CompletionStatus status, int length) {
    if (status == CompletionStatus.FLUSHED) {
      return;
    }
    if (status != CompletionStatus.SUCCESS) {
      throw new IllegalStateException("receive " + slot + " completed with " + status);
    }
    MemorySegment bytes = endpoint.bytes();
    long sendOffset = (DEPTH + slot) * slotBytes;
    MemorySegment.copy(bytes, slot * slotBytes, bytes, sendOffset, length);
    try {
      endpoint.pair.sendRequests().set(0, slot, endpoint.memory, sendOffset, length, true, false);
      endpoint.pair.postSend(1);
      endpoint.postReceive(slot, slot * slotBytes, slotBytes);
    } catch (VerbsException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void checkSent(
      int pair, long id, CompletionOpcode opcode, CompletionStatus status, int length) {
    if (status != CompletionStatus.SUCCESS && status != CompletionStatus.FLUSHED) {
      throw new IllegalStateException("echo " + id + " completed with " + status);
    }
  }

  @Override
  public void connectRequested(
      ConnectionListener listener, PendingConnection request, byte[] privateData) {
    try {
      endpoint.pair = request.queuePair();
      for (int slot = 0; slot < DEPTH; slot++) {
        endpoint.postReceive(slot, (long) slot * slotBytes, slotBytes);
      }
      request.accept(privateData);
    } catch (VerbsException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void established(PendingConnection connection, byte[] privateData) {}

  @Override
  public void failed(PendingConnection connection, String reason) {
    throw new IllegalStateException(reason);
  }

  @Override
  public void disconnected(QueuePair queuePair) {
    finished = true;
  }
}
