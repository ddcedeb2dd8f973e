package io.rubinbft.orderer.client;

import io.grpc.Channel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;

/**
 * One Deliver request read response by response at the reader's pace. The next response is asked of
 * the orderer only when the reader comes for it, so at most one response (and the call's end) waits
 * here, whatever the orderer sends: gRPC's flow control holds the rest at the orderer. Not
 * thread-safe, except {@link #close}, which may come from any thread.
 */
public final class BlockStream implements AutoCloseable {

  /** What a read found. */
  public sealed interface Next {

    /** The next block. */
    record Received(Block block) implements Next {}

    /** The orderer's final status for the request. */
    record Ended(Status status) implements Next {}

    /** The call failed, or ended without a status. */
    record Failed(String reason) implements Next {}

    /** Nothing came within the time the reader waited. */
    record TimedOut(Duration waited) implements Next {}
  }

  /** One response at most (one is asked for at a time) and the call's end. */
  private final BlockingQueue<Next> arrived = new ArrayBlockingQueue<>(2);

  @SuppressWarnings("NullAway.Init") // open() sets it right after construction
  private volatile ClientCallStreamObserver<Envelope> call;

  private boolean owed;
  private boolean ended;

  private BlockStream() {}

  /** Sends {@code seek} on a new Deliver call to {@code orderer} and half-closes the call. */
  public static BlockStream open(Channel orderer, Envelope seek) {
    BlockStream stream = new BlockStream();
    stream.call =
        (ClientCallStreamObserver<Envelope>)
            AtomicBroadcastGrpc.newStub(orderer).deliver(stream.new Responses());
    stream.call.onNext(seek);
    stream.call.onCompleted();
    return stream;
  }

  /**
   * Sends {@code seek} and reads the whole answer, which must end with SUCCESS.
   *
   * @param maxBlocks the most blocks accepted; the request must ask for no more
   * @param what names the request in errors, e.g. "block 0 of channel 'mychannel'"
   * @throws IllegalStateException when the orderer does not answer SUCCESS in time
   */
  public static List<Block> readAll(
      Channel orderer, Envelope seek, int maxBlocks, Duration timeout, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Block> blocks = new ArrayList<>();
    try (BlockStream stream = open(orderer, seek)) {
      while (true) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        switch (stream.next(left)) {
          case Next.Received received when blocks.size() < maxBlocks ->
              blocks.add(received.block());
          case Next.Received received ->
              throw new IllegalStateException(
                  "cannot read " + what + ": more than " + maxBlocks + " blocks came");
          case Next.Ended ended when ended.status() == Status.SUCCESS -> {
            return List.copyOf(blocks);
          }
          case Next.Ended ended ->
              throw new IllegalStateException(
                  "cannot read " + what + ": Deliver answered " + ended.status());
          case Next.Failed failed ->
              throw new IllegalStateException("cannot read " + what + ": " + failed.reason());
          case Next.TimedOut timedOut ->
              throw new IllegalStateException(
                  "cannot read " + what + ": no answer within " + timeout);
        }
      }
    }
  }

  /**
   * The next response, waiting up to {@code timeout} for it. After an {@link Next.Ended} or {@link
   * Next.Failed}, every read answers {@link Next.Failed}.
   */
  public Next next(Duration timeout) throws InterruptedException {
    if (ended) {
      return new Next.Failed("the stream has ended");
    }
    if (owed) {
      call.request(1);
      owed = false;
    }
    Next next = arrived.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (next == null) {
      return new Next.TimedOut(timeout);
    }
    switch (next) {
      case Next.Received received -> owed = true;
      case Next.Ended e -> ended = true;
      case Next.Failed f -> ended = true;
      case Next.TimedOut t -> throw new IllegalStateException("a timeout is never queued");
    }
    return next;
  }

  /** Cancels the call; a read in progress gets the call's end. */
  @Override
  public void close() {
    call.cancel("the reader closed the stream", null);
  }

  /** gRPC's callbacks: each queues what it brings for the reader. */
  private final class Responses implements ClientResponseObserver<Envelope, DeliverResponse> {

    private boolean gotStatus;

    @Override
    public void beforeStart(ClientCallStreamObserver<Envelope> requestStream) {
      requestStream.disableAutoRequestWithInitial(1);
    }

    @Override
    public void onNext(DeliverResponse response) {
      if (response.hasBlock()) {
        queue(new Next.Received(response.getBlock()));
      } else {
        gotStatus = true;
        queue(new Next.Ended(response.getStatus()));
      }
    }

    @Override
    public void onError(Throwable t) {
      if (!gotStatus) {
        queue(new Next.Failed("the call failed: " + io.grpc.Status.fromThrowable(t)));
      }
    }

    @Override
    public void onCompleted() {
      if (!gotStatus) {
        queue(new Next.Failed("the orderer ended the call without a status"));
      }
    }

    private void queue(Next next) {
      if (!arrived.offer(next)) {
        // One response is asked for at a time and the call ends once: two places suffice.
        throw new IllegalStateException("a Deliver response came that was not asked for");
      }
    }
  }
}
