package io.rubinbft.orderer.service;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.AtomicBroadcastGrpc;
import org.hyperledger.fabric.protos.orderer.DeliverResponse;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.hyperledger.fabric.protos.orderer.SeekSpecified;

/** One Deliver stream as a test drives it: seek requests out, responses read one by one. */
final class DeliverClient {

  final Streams<DeliverResponse> responses = new Streams<>();
  final StreamObserver<Envelope> requests;

  DeliverClient(AtomicBroadcastGrpc.AtomicBroadcastStub stub) {
    requests = stub.deliver(responses);
  }

  /** What one request got: the blocks' raw bytes and the final status. */
  record Answer(List<ByteString> blocks, Status status) {}

  /** Sends {@code seek} and reads its blocks up to and including the status. */
  Answer request(Envelope seek) throws InterruptedException {
    requests.onNext(seek);
    return answer();
  }

  Answer answer() throws InterruptedException {
    List<ByteString> blocks = new ArrayList<>();
    while (true) {
      DeliverResponse response = responses.next();
      if (response.getTypeCase() == DeliverResponse.TypeCase.STATUS) {
        return new Answer(blocks, response.getStatus());
      }
      blocks.add(response.getBlock().toByteString());
    }
  }

  static Envelope seek(long start, long stop, SeekInfo.SeekBehavior behavior) {
    return seek(specified(start), specified(stop), behavior, SeekInfo.SeekContentType.BLOCK);
  }

  static Envelope seek(
      SeekPosition start,
      SeekPosition stop,
      SeekInfo.SeekBehavior behavior,
      SeekInfo.SeekContentType content) {
    return seekBy(ServiceNode.user1Envelopes(), start, stop, behavior, content, ByteString.EMPTY);
  }

  static Envelope seekBy(
      EnvelopeFactory factory,
      SeekPosition start,
      SeekPosition stop,
      SeekInfo.SeekBehavior behavior,
      SeekInfo.SeekContentType content,
      ByteString tlsCertHash) {
    SeekInfo info =
        SeekInfo.newBuilder()
            .setStart(start)
            .setStop(stop)
            .setBehavior(behavior)
            .setContentType(content)
            .build();
    return factory.seek(ServiceNode.CHANNEL, info, tlsCertHash);
  }

  static SeekPosition specified(long number) {
    return SeekPosition.newBuilder()
        .setSpecified(SeekSpecified.newBuilder().setNumber(number))
        .build();
  }
}
