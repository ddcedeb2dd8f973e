package io.rubinbft.orderer.grpc;

import com.google.protobuf.UnsafeByteOperations;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.rubinbft.orderer.block.EnvelopeViews;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * Parses the {@link Envelope} requests of a gRPC service with one copy of their bytes. grpc-java's
 * protobuf marshaller copies a request into a scratch buffer and parses from there, copying every
 * {@code bytes} field again; here the request is read once into an array of its exact size, and the
 * envelope's payload and signature are views of that array. A 3.5 KB Broadcast envelope then costs
 * one allocation of its size instead of three, and the validator parses the payload from the same
 * array ({@code Decoding}).
 *
 * <p>The array is never written after the read, which is what makes the views safe. A request that
 * is not an Envelope fails the call as grpc-java's own marshaller makes it fail.
 */
public final class EnvelopeRequests implements MethodDescriptor.PrototypeMarshaller<Envelope> {

  private static final EnvelopeRequests INSTANCE = new EnvelopeRequests();

  /** Answers, and the envelopes a client sends, are written as grpc-java writes any message. */
  private static final MethodDescriptor.Marshaller<Envelope> WRITER =
      ProtoUtils.marshaller(Envelope.getDefaultInstance());

  private EnvelopeRequests() {}

  /**
   * {@code service} with every method whose requests are Envelopes (Broadcast, Deliver) reading
   * them with this marshaller; everything else, the schema descriptor included, unchanged.
   */
  public static ServerServiceDefinition parsedInPlace(ServerServiceDefinition service) {
    ServiceDescriptor original = service.getServiceDescriptor();
    List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
    for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
      methods.add(withEnvelopeRequests(method));
    }
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(original.getName())
            .setSchemaDescriptor(original.getSchemaDescriptor());
    methods.forEach(method -> descriptor.addMethod(method.getMethodDescriptor()));
    ServerServiceDefinition.Builder definition =
        ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(definition::addMethod);
    return definition.build();
  }

  @SuppressWarnings("unchecked") // the request type is checked through the marshaller's prototype
  private static <R> ServerMethodDefinition<?, R> withEnvelopeRequests(
      ServerMethodDefinition<?, R> method) {
    MethodDescriptor<?, R> descriptor = method.getMethodDescriptor();
    if (!(descriptor.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> p)
        || !(p.getMessagePrototype() instanceof Envelope)) {
      return method;
    }
    var envelopes = (ServerMethodDefinition<Envelope, R>) method;
    return ServerMethodDefinition.create(
        envelopes.getMethodDescriptor().toBuilder(INSTANCE, descriptor.getResponseMarshaller())
            .build(),
        envelopes.getServerCallHandler());
  }

  @Override
  public Envelope parse(InputStream stream) {
    try {
      // The array is this request's alone and never written again: safe to view.
      return EnvelopeViews.envelope(UnsafeByteOperations.unsafeWrap(read(stream)));
    } catch (IOException e) { // InvalidProtocolBufferException among them
      throw Status.INTERNAL
          .withDescription("Invalid protobuf byte sequence")
          .withCause(e)
          .asRuntimeException();
    }
  }

  /** gRPC's request streams know their length: one array of exactly that size, one copy. */
  private static byte[] read(InputStream stream) throws IOException {
    if (!(stream instanceof KnownLength)) {
      return stream.readAllBytes();
    }
    byte[] bytes = new byte[stream.available()];
    int read = stream.readNBytes(bytes, 0, bytes.length);
    if (read != bytes.length) {
      throw new IOException("request is " + bytes.length + " bytes but only " + read + " came");
    }
    if (stream.read() != -1) {
      throw new IOException("request is " + bytes.length + " bytes but more came");
    }
    return bytes;
  }

  @Override
  public InputStream stream(Envelope value) {
    return WRITER.stream(value);
  }

  @Override
  public Envelope getMessagePrototype() {
    return Envelope.getDefaultInstance();
  }

  @Override
  public Class<Envelope> getMessageClass() {
    return Envelope.class;
  }
}
