package io.rubinbft.orderer.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.service.DeliverClient.Answer;
import java.nio.file.Path;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekContentType;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node settings of Fabric's {@code orderer.yaml} on the Broadcast/Deliver service:
 * General.MaxSendMsgSize (a larger message ends the call with grpc-go's RESOURCE_EXHAUSTED) and
 * General.Authentication.NoExpirationChecks (expired clients served).
 */
class NodeSettingsServiceTest {

  @TempDir Path directory;

  @AutoClose private ServiceNode node;

  private static final long UNLIMITED = 100L << 20;

  @Test
  void aBlockLargerThanMaxSendMsgSizeEndsTheStreamWithResourceExhausted() throws Exception {
    long block1 = responseSize(1);
    assertThat(responseSize(0)).isGreaterThan(block1);
    node = ServiceNode.start(directory, true, block1);

    DeliverClient fits = new DeliverClient(node.stub());
    Answer one = fits.request(DeliverClient.seek(1, 1, SeekBehavior.FAIL_IF_NOT_READY));
    assertThat(one.status()).isEqualTo(Status.SUCCESS);
    assertThat(one.blocks()).hasSize(1);

    DeliverClient tooLarge = new DeliverClient(node.stub());
    tooLarge.requests.onNext(DeliverClient.seek(0, 1, SeekBehavior.FAIL_IF_NOT_READY));
    io.grpc.Status ended = tooLarge.responses.end();
    assertThat(ended.getCode()).isEqualTo(io.grpc.Status.Code.RESOURCE_EXHAUSTED);
    assertThat(ended.getDescription())
        .isEqualTo(
            "trying to send message larger than max (" + responseSize(0) + " vs. " + block1 + ")");
    assertThat(tooLarge.responses.pending()).isZero();
  }

  @Test
  void withoutExpirationChecksAnExpiredClientWritesAndReads() throws Exception {
    Envelope expired =
        SignedEnvelopes.signed(
            SignedEnvelopes.expiredCreator(),
            HeaderType.ENDORSER_TRANSACTION,
            "fixture",
            ByteString.copyFromUtf8("tx"));
    Envelope expiredSeek =
        DeliverClient.seekBy(
            new EnvelopeFactory(SignedEnvelopes.expiredCreator(), ServiceNode.RECORDED_CLOCK),
            DeliverClient.specified(1),
            DeliverClient.specified(1),
            SeekBehavior.FAIL_IF_NOT_READY,
            SeekContentType.BLOCK,
            ByteString.EMPTY);

    node = ServiceNode.start(directory, true, UNLIMITED);
    assertThat(broadcast(expired).getInfo()).isEqualTo("broadcast client identity expired");
    assertThat(new DeliverClient(node.stub()).request(expiredSeek).status())
        .isEqualTo(Status.FORBIDDEN);
    node.close();

    node = ServiceNode.start(directory.resolve("unchecked"), false, UNLIMITED);
    assertThat(broadcast(expired).getStatus()).isEqualTo(Status.SUCCESS);
    Answer read = new DeliverClient(node.stub()).request(expiredSeek);
    assertThat(read.status()).isEqualTo(Status.SUCCESS);
    assertThat(read.blocks()).hasSize(1);
  }

  private BroadcastResponse broadcast(Envelope envelope) throws InterruptedException {
    Streams<BroadcastResponse> stream = new Streams<>();
    StreamObserver<Envelope> requests = node.stub().broadcast(stream);
    requests.onNext(envelope);
    requests.onCompleted();
    return stream.next();
  }

  /** The encoded size of the Deliver response carrying fixture block {@code number}. */
  private static long responseSize(int number) throws Exception {
    Block block =
        Block.parseFrom(
            io.rubinbft.orderer.crypto.Fixtures.bytes(
                String.format("blocks/bft-%03d.block", number)));
    return DeliverResponse.newBuilder().setBlock(block).build().getSerializedSize();
  }
}
