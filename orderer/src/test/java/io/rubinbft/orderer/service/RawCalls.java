package io.rubinbft.orderer.service;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;

/** Calls that send bytes which are not a protobuf Envelope, as a broken client would. */
public final class RawCalls {

  private RawCalls() {}

  /** Sends {@code bytes} as a Broadcast request; how the server ended the call. */
  public static Status broadcast(Channel channel, byte[] bytes) throws InterruptedException {
    return send(channel, AtomicBroadcastGrpc.getBroadcastMethod().getFullMethodName(), bytes);
  }

  /** Sends {@code bytes} as a Deliver request; how the server ended the call. */
  public static Status deliver(Channel channel, byte[] bytes) throws InterruptedException {
    return send(channel, AtomicBroadcastGrpc.getDeliverMethod().getFullMethodName(), bytes);
  }

  private static Status send(Channel channel, String method, byte[] bytes)
      throws InterruptedException {
    MethodDescriptor<byte[], byte[]> raw =
        MethodDescriptor.<byte[], byte[]>newBuilder(RAW, RAW)
            .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
            .setFullMethodName(method)
            .build();
    Streams<byte[]> stream = new Streams<>();
    StreamObserver<byte[]> requests =
        ClientCalls.asyncBidiStreamingCall(channel.newCall(raw, CallOptions.DEFAULT), stream);
    requests.onNext(bytes);
    return stream.end();
  }

  private static final MethodDescriptor.Marshaller<byte[]> RAW =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
}
