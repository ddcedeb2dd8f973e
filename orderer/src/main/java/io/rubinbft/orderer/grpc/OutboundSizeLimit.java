package io.rubinbft.orderer.grpc;

import com.google.protobuf.MessageLite;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Fabric's {@code General.MaxSendMsgSize} on our gRPC server (grpc-java has no server-side send
 * limit): a message larger than the limit is not sent; the call ends with RESOURCE_EXHAUSTED and
 * grpc-go's server-stream text {@code trying to send message larger than max (N vs. M)}, and the
 * sender gets that status as an exception, as grpc-go's {@code SendMsg} returns it to Fabric's
 * handlers. Sizes are protobuf encoded sizes (the uncompressed payload grpc-go measures).
 */
public final class OutboundSizeLimit implements ServerInterceptor {

  private final long maxBytes;

  public OutboundSizeLimit(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("max send size must be positive, got " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    return next.startCall(new Limited<>(call), headers);
  }

  private final class Limited<Q, R> extends SimpleForwardingServerCall<Q, R> {

    private boolean closed;

    Limited(ServerCall<Q, R> call) {
      super(call);
    }

    @Override
    public void sendMessage(R message) {
      if (message instanceof MessageLite proto && proto.getSerializedSize() > maxBytes) {
        Status tooLarge =
            Status.RESOURCE_EXHAUSTED.withDescription(
                "trying to send message larger than max ("
                    + proto.getSerializedSize()
                    + " vs. "
                    + maxBytes
                    + ")");
        close(tooLarge, new Metadata());
        throw tooLarge.asRuntimeException();
      }
      super.sendMessage(message);
    }

    @Override
    public void close(Status status, Metadata trailers) {
      // The handler learns of the refusal by the exception and may end the call itself again.
      if (!closed) {
        closed = true;
        super.close(status, trailers);
      }
    }
  }
}
