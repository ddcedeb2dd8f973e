package io.rubinbft.orderer.service;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client side of one server stream: every response in arrival order and how the stream ended.
 * Waits are bounded so a broken server fails the test instead of hanging it.
 */
public final class Streams<R> implements StreamObserver<R> {

  private static final long WAIT_SECONDS = 30;

  private final BlockingQueue<R> responses = new LinkedBlockingQueue<>();
  private final CompletableFuture<Status> end = new CompletableFuture<>();

  @Override
  public void onNext(R value) {
    responses.add(value);
  }

  @Override
  public void onError(Throwable t) {
    end.complete(Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    end.complete(Status.OK);
  }

  /** The next response. */
  public R next() throws InterruptedException {
    R response = responses.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (response == null) {
      throw new AssertionError("no response within " + WAIT_SECONDS + " s");
    }
    return response;
  }

  /** How the server ended the stream. */
  public Status end() throws InterruptedException {
    try {
      return end.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError("the stream did not end within " + WAIT_SECONDS + " s", e);
    }
  }

  boolean hasEnded() {
    return end.isDone();
  }

  /** Responses received and not yet taken. */
  int pending() {
    return responses.size();
  }
}
