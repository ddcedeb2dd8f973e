package io.rubinbft.orderer.loadgen;

import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;

/**
 * One Broadcast stream to one orderer, pipelined: envelopes go out back to back and responses,
 * which Fabric sends in order, complete them first in, first out. Fabric ends the stream after any
 * non-SUCCESS answer, so a closed stream is reopened on the next submit.
 */
final class BroadcastStream {

  private final ManagedChannel channel;
  private final Queue<CompletableFuture<BroadcastResponse>> pending = new ArrayDeque<>();
  private StreamObserver<Envelope> requests;

  BroadcastStream(ManagedChannel channel) {
    this.channel = channel;
  }

  /** Sends {@code envelope}; the future completes with the orderer's answer or the stream error. */
  synchronized CompletableFuture<BroadcastResponse> submit(Envelope envelope) {
    if (requests == null) {
      requests = AtomicBroadcastGrpc.newStub(channel).broadcast(new Responses());
    }
    CompletableFuture<BroadcastResponse> response = new CompletableFuture<>();
    pending.add(response);
    requests.onNext(envelope);
    return response;
  }

  synchronized void close() {
    if (requests != null) {
      requests.onCompleted();
      requests = null;
    }
  }

  private synchronized void answered(BroadcastResponse response) {
    CompletableFuture<BroadcastResponse> head = pending.poll();
    if (head != null) {
      head.complete(response);
    }
  }

  private synchronized void ended(Throwable cause) {
    requests = null;
    IllegalStateException closed =
        new IllegalStateException("broadcast stream ended: " + cause.getMessage(), cause);
    for (CompletableFuture<BroadcastResponse> waiting = pending.poll();
        waiting != null;
        waiting = pending.poll()) {
      waiting.completeExceptionally(closed);
    }
  }

  private final class Responses implements StreamObserver<BroadcastResponse> {

    @Override
    public void onNext(BroadcastResponse response) {
      answered(response);
    }

    @Override
    public void onError(Throwable t) {
      ended(t);
    }

    @Override
    public void onCompleted() {
      ended(new IllegalStateException("closed by the orderer"));
    }
  }
}
