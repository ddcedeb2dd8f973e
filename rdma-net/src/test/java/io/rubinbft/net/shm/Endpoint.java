package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.QueuePair;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a test connection: its device, completion queues, one registered region, the queue
 * pair once connected, and helpers that post and poll in the shapes tests need.
 */
final class Endpoint {

  static final int PAIRS_PER_QUEUE = 8;

  final ShmVerbsDevice device;
  final CompletionQueue sendCompletions;
  final CompletionQueue receiveCompletions;
  final RegisteredMemory memory;
  final QueuePairSpec spec;
  final RecordingEvents events = new RecordingEvents();
  QueuePair pair;

  Endpoint(ShmVerbsDevice device, int sendDepth, int receiveDepth, int maxInline, long memoryBytes)
      throws VerbsException {
    this.device = device;
    // Room for the work requests of several pairs, as a listener's many connections need.
    this.sendCompletions = device.createCompletionQueue(PAIRS_PER_QUEUE * sendDepth);
    this.receiveCompletions = device.createCompletionQueue(PAIRS_PER_QUEUE * receiveDepth);
    this.memory = device.register(memoryBytes);
    this.spec =
        new QueuePairSpec(sendDepth, receiveDepth, maxInline, sendCompletions, receiveCompletions);
  }

  MemorySegment bytes() {
    return memory.segment();
  }

  /** Posts one receive of {@code capacity} bytes at {@code offset}. */
  void postReceive(long workRequestId, long offset, int capacity) throws VerbsException {
    pair.receiveRequests().set(0, workRequestId, memory, offset, capacity, true, false);
    pair.postReceive(1);
  }

  /** Writes {@code text} at {@code offset} and posts it as one signaled send. */
  void send(long workRequestId, long offset, String text) throws VerbsException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    MemorySegment.copy(bytes, 0, bytes(), ValueLayout.JAVA_BYTE, offset, bytes.length);
    pair.sendRequests().set(0, workRequestId, memory, offset, bytes.length, true, false);
    pair.postSend(1);
  }

  String text(long offset, int length) {
    return new String(
        bytes().asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
  }

  List<RecordedCompletion> pollSends() throws VerbsException {
    return poll(sendCompletions);
  }

  List<RecordedCompletion> pollReceives() throws VerbsException {
    return poll(receiveCompletions);
  }

  /**
   * Polls the connection events and both queues until one of them shows something, sleeping in the
   * device's event channel between looks as a selector's poller does, with no timeout: only a
   * peer's doorbell (or a hang-up) wakes it. Completions are added to {@code into}.
   */
  void sleepUntilAnything(List<RecordedCompletion> into) throws VerbsException {
    EventChannel channel = device.eventChannel().orElseThrow();
    while (pollEverything(into) == 0) {
      if (channel.arm()) {
        if (pollEverything(into) > 0) {
          channel.disarm();
          return;
        }
        channel.await(Long.MAX_VALUE);
      }
    }
  }

  private int pollEverything(List<RecordedCompletion> into) throws VerbsException {
    int before = into.size();
    int events = device.pollConnectionEvents(this.events);
    into.addAll(pollReceives());
    into.addAll(pollSends());
    return events + into.size() - before;
  }

  static List<RecordedCompletion> poll(CompletionQueue queue) throws VerbsException {
    List<RecordedCompletion> completions = new ArrayList<>();
    queue.poll(
        (number, id, opcode, status, length) ->
            completions.add(new RecordedCompletion(id, opcode, status, length)),
        Integer.MAX_VALUE);
    return completions;
  }
}
