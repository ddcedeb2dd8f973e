package io.rubinbft.orderer.service;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.function.Function;

/**
 * A server stream that asks for each request itself (gRPC's manual flow control), so that a client
 * that sends faster than it is answered fills its own HTTP/2 window instead of the node's memory.
 * Broadcast and Deliver sessions are opened this way.
 *
 * @param <T> the requests the client sends
 */
public interface PacedSession<T> extends StreamObserver<T> {

  /** The transport can take more responses (gRPC's on-ready handler). */
  void onReady();

  /** The call ended from the client's or the transport's side (gRPC's on-cancel handler). */
  void onCancel();

  /**
   * Starts serving a call with the session {@code create} makes over its responses: automatic
   * requests off, the session told when the transport is ready and when the call is cancelled, the
   * first request asked for. To be called from the service method itself.
   */
  static <T, R, S extends PacedSession<T>> S open(
      StreamObserver<R> responseObserver, Function<ServerCallStreamObserver<R>, S> create) {
    var responses = (ServerCallStreamObserver<R>) responseObserver;
    responses.disableAutoRequest();
    S session = create.apply(responses);
    responses.setOnReadyHandler(session::onReady);
    responses.setOnCancelHandler(session::onCancel);
    responses.request(1);
    return session;
  }
}
