package io.rubinbft.orderer.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.junit.jupiter.api.Test;

class EnvelopeRequestsTest {

  private static final ServerServiceDefinition ATOMIC_BROADCAST =
      new AtomicBroadcastGrpc.AtomicBroadcastImplBase() {}.bindService();

  @Test
  void broadcastAndDeliverReadTheirEnvelopesWithIt() {
    ServerServiceDefinition parsed = EnvelopeRequests.parsedInPlace(ATOMIC_BROADCAST);

    for (MethodDescriptor<?, ?> method :
        new MethodDescriptor<?, ?>[] {
          AtomicBroadcastGrpc.getBroadcastMethod(), AtomicBroadcastGrpc.getDeliverMethod()
        }) {
      ServerMethodDefinition<?, ?> bound = parsed.getMethod(method.getFullMethodName());
      assertThat(bound.getMethodDescriptor().getRequestMarshaller())
          .isInstanceOf(EnvelopeRequests.class);
      assertThat(bound.getMethodDescriptor().getResponseMarshaller())
          .isSameAs(method.getResponseMarshaller());
      assertThat(bound.getMethodDescriptor().getType()).isEqualTo(method.getType());
      assertThat(bound.getServerCallHandler())
          .isSameAs(ATOMIC_BROADCAST.getMethod(method.getFullMethodName()).getServerCallHandler());
    }
    assertThat(parsed.getServiceDescriptor().getName()).isEqualTo(AtomicBroadcastGrpc.SERVICE_NAME);
    assertThat(parsed.getServiceDescriptor().getSchemaDescriptor())
        .isSameAs(ATOMIC_BROADCAST.getServiceDescriptor().getSchemaDescriptor());
  }

  @Test
  void aServiceWithoutEnvelopeRequestsKeepsItsMethods() {
    ServerServiceDefinition health = new HealthStatusManager().getHealthService().bindService();

    ServerServiceDefinition parsed = EnvelopeRequests.parsedInPlace(health);

    for (ServerMethodDefinition<?, ?> method : health.getMethods()) {
      assertThat(
              parsed
                  .getMethod(method.getMethodDescriptor().getFullMethodName())
                  .getMethodDescriptor())
          .isSameAs(method.getMethodDescriptor());
    }
  }

  /** Property: random envelopes read back equal, whether or not the stream knows its length. */
  @Test
  void parsesWhatWasSent() {
    long seed = new Random().nextLong();
    System.out.println("EnvelopeRequestsTest seed " + seed);
    Random random = new Random(seed);
    EnvelopeRequests marshaller = marshaller();
    for (int run = 0; run < 100; run++) {
      Envelope sent =
          Envelope.newBuilder()
              .setPayload(bytes(random, random.nextInt(6000)))
              .setSignature(bytes(random, random.nextInt(80)))
              .build();
      byte[] wire = sent.toByteArray();

      assertThat(marshaller.parse(new Sized(wire))).as("seed %d run %d", seed, run).isEqualTo(sent);
      assertThat(marshaller.parse(new ByteArrayInputStream(wire)))
          .as("seed %d run %d", seed, run)
          .isEqualTo(sent);
    }
  }

  @Test
  void bytesThatAreNotAnEnvelopeFailAsGrpcsOwnMarshallerFails() {
    assertThatThrownBy(() -> marshaller().parse(new Sized(new byte[] {(byte) 0xff, 0x01})))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo("Invalid protobuf byte sequence");
            });
  }

  @Test
  void writesEnvelopesAsProtobufDoes() throws IOException {
    Envelope envelope =
        Envelope.newBuilder().setPayload(ByteString.copyFromUtf8("payload")).build();

    try (InputStream stream = marshaller().stream(envelope)) {
      assertThat(stream.readAllBytes()).isEqualTo(envelope.toByteArray());
    }
  }

  private static EnvelopeRequests marshaller() {
    return (EnvelopeRequests)
        EnvelopeRequests.parsedInPlace(ATOMIC_BROADCAST)
            .getMethod(AtomicBroadcastGrpc.getBroadcastMethod().getFullMethodName())
            .getMethodDescriptor()
            .getRequestMarshaller();
  }

  private static ByteString bytes(Random random, int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return ByteString.copyFrom(bytes);
  }

  /** A request stream as gRPC hands one to a marshaller: it knows its length. */
  private static final class Sized extends ByteArrayInputStream implements KnownLength {
    Sized(byte[] bytes) {
      super(bytes);
    }
  }
}
