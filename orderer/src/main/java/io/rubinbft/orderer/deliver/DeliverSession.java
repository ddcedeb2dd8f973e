package io.rubinbft.orderer.deliver;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.service.PacedSession;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Deliver stream: its seek requests are served one after another, each on a virtual thread of
 * its own, so that gRPC's callbacks for the call (cancellation, readiness, the client's half-close)
 * are never stuck behind a request that waits for blocks.
 *
 * <p>As in Fabric's deliver handler: the next request is read only after the previous one got its
 * final status; a non-SUCCESS status ends the stream (gRPC status OK); when the client half-closes,
 * the stream ends after the request in progress. A cancelled call interrupts the request's thread,
 * which stops waiting for blocks or for the transport at once.
 *
 * <p>A block handed to the transport is held in the node's {@link DeliverBytes} until the transport
 * is ready again (the block left its queue) or the call ends; the next block waits for that, and
 * for room and its reader's turn among all readers' blocks.
 */
public final class DeliverSession implements PacedSession<Envelope>, DeliverBytes.Holder {

  private static final Logger LOG = LoggerFactory.getLogger(DeliverSession.class);

  /** What {@link #resetStream} sends: no marshaller of a response takes it. */
  private static final Object UNSERIALIZABLE = new Object();

  private final ServerCallStreamObserver<DeliverResponse> responses;
  private final SeekHandler seeks;
  private final DeliverBytes deliverBytes;
  private final Optional<ByteString> clientCertificate;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition transportReady = lock.newCondition();
  private @Nullable Thread request;
  private boolean halfClosed;
  private boolean cancelled;
  private boolean ended;
  // A block handed to the transport is held in deliverBytes until the transport is ready again.
  private boolean blockInTransport;

  private DeliverSession(
      ServerCallStreamObserver<DeliverResponse> responses,
      SeekHandler seeks,
      Optional<ByteString> clientCertificate) {
    this.responses = responses;
    this.seeks = seeks;
    this.deliverBytes = seeks.deliverBytes();
    this.clientCertificate = clientCertificate;
    // A call we ended (status or error) releases its last block once the transport sent it; one
    // cancelled releases it in onCancel.
    responses.setOnCloseHandler(() -> deliverBytes.release(this));
  }

  /**
   * Starts serving a call; to be called from the service method itself.
   *
   * @param clientCertificate the DER of the connection's TLS client certificate, if any
   */
  public static StreamObserver<Envelope> open(
      StreamObserver<DeliverResponse> responseObserver,
      SeekHandler seeks,
      Optional<ByteString> clientCertificate) {
    return PacedSession.open(
        responseObserver, responses -> new DeliverSession(responses, seeks, clientCertificate));
  }

  @Override
  public void onNext(Envelope envelope) {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      if (request != null) {
        throw new IllegalStateException("a seek request arrived before the previous one ended");
      }
      request = Thread.ofVirtual().name("deliver-request").start(() -> serve(envelope));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onError(Throwable t) {
    onCancel();
  }

  @Override
  public void onCompleted() {
    lock.lock();
    try {
      halfClosed = true;
      if (request == null) {
        end();
      }
    } finally {
      lock.unlock();
    }
  }

  private void serve(Envelope envelope) {
    Status status;
    try {
      status =
          seeks.serve(envelope, clientCertificate, reader -> response -> send(reader, response));
    } catch (InterruptedException e) {
      return; // cancelled: nobody is listening any more
    } catch (StatusRuntimeException e) {
      // The transport refused a response (MaxSendMsgSize) and ended the call with that status.
      LOG.warn("Deliver stream ended: {}", e.getStatus());
      fail(io.grpc.Status.INTERNAL.withDescription("deliver failed: " + e));
      return;
    } catch (RuntimeException e) {
      LOG.error("Deliver request failed", e);
      fail(io.grpc.Status.INTERNAL.withDescription("deliver failed: " + e));
      return;
    } catch (OutOfMemoryError e) {
      if (!isDirectMemory(e)) {
        throw e;
      }
      // Direct memory is bounded by the plan (orderer/docs/MEMORY.md); a response that finds it
      // full costs this stream, which the reader retries, not the request's thread with the stream
      // left open.
      deliverBytes.directMemoryExhausted();
      LOG.warn("Deliver stream ended: {}", e.toString());
      fail(
          io.grpc.Status.RESOURCE_EXHAUSTED.withDescription(
              "deliver failed: the node's direct memory is exhausted, retry later"));
      return;
    }
    finish(status);
  }

  /**
   * Whether {@code e} is a failed direct-memory allocation (netty's allocator or the JDK's), which
   * fails that allocation only; a heap exhaustion ends the process (the launcher's
   * ExitOnOutOfMemoryError) and is never caught here.
   */
  private static boolean isDirectMemory(OutOfMemoryError e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName().equals("OutOfDirectMemoryError")
        || (message != null && message.contains("direct buffer memory"));
  }

  private void send(ByteString reader, DeliverResponse response) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (!cancelled && !responses.isReady()) {
        transportReady.await();
      }
      if (cancelled) {
        throw new InterruptedException("the Deliver call was cancelled");
      }
      releaseSentBlock();
    } finally {
      lock.unlock();
    }
    // Room is awaited without this session's lock, which its cancellation needs.
    deliverBytes.acquire(this, reader, response.getSerializedSize());
    lock.lockInterruptibly();
    try {
      if (cancelled) {
        deliverBytes.release(this);
        throw new InterruptedException("the Deliver call was cancelled");
      }
      responses.onNext(response);
      blockInTransport = true;
    } finally {
      lock.unlock();
    }
  }

  /** Gives back the block handed to the transport last, which the transport sent. Under lock. */
  private void releaseSentBlock() {
    if (blockInTransport) {
      blockInTransport = false;
      deliverBytes.release(this);
    }
  }

  /**
   * This reader's block was not taken in its turn while others waited for room ({@link
   * DeliverBytes}): the stream ends, so its block's memory goes back.
   */
  @Override
  public void overdue() {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      cancelled = true;
      ended = true;
      transportReady.signalAll();
      if (request != null) {
        request.interrupt();
        request = null;
      }
      resetStream();
    } finally {
      lock.unlock();
    }
    LOG.warn(
        "Deliver stream reset: its reader did not take a block in its turn while others waited");
  }

  /**
   * Resets the stream (HTTP/2 RST_STREAM), which frees the block its transport still holds.
   * grpc-java's server API has no reset, and ending the call with a status would queue the status
   * behind the block the reader is not taking, which would then stay in Netty's buffers for as long
   * as the connection lives. A response its marshaller cannot serialize (not a DeliverResponse)
   * makes grpc-java cancel the stream (its internal-error path: the reader sees CANCELLED); {@code
   * StalledDeliverReaderTest} checks that this still ends the stream on the node. Under lock.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void resetStream() {
    try {
      ((StreamObserver) responses).onNext(UNSERIALIZABLE);
    } catch (RuntimeException e) {
      // The call was cancelled or closed meanwhile: nothing left to reset, and the session that
      // made this one give way must not fail for it.
      LOG.debug("Deliver stream not reset: {}", e.toString());
    }
  }

  private void finish(Status status) {
    lock.lock();
    try {
      request = null;
      if (ended) {
        return;
      }
      responses.onNext(DeliverResponse.newBuilder().setStatus(status).build());
      if (status != Status.SUCCESS || halfClosed) {
        end();
      } else {
        responses.request(1);
      }
    } finally {
      lock.unlock();
    }
  }

  private void fail(io.grpc.Status status) {
    lock.lock();
    try {
      request = null;
      if (!ended) {
        ended = true;
        responses.onError(status.asRuntimeException());
      }
    } finally {
      lock.unlock();
    }
  }

  private void end() {
    if (!ended) {
      ended = true;
      responses.onCompleted();
    }
  }

  @Override
  public void onReady() {
    lock.lock();
    try {
      transportReady.signalAll();
      if (responses.isReady()) {
        // The block sent last left the transport's queue, whether or not another follows.
        releaseSentBlock();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onCancel() {
    lock.lock();
    try {
      cancelled = true;
      ended = true;
      transportReady.signalAll();
      if (request != null) {
        request.interrupt();
      }
    } finally {
      lock.unlock();
    }
    deliverBytes.release(this);
  }
}
