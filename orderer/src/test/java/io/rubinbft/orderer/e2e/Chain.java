package io.rubinbft.orderer.e2e;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Channel;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.DeliverCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.hyperledger.fabric.protos.orderer.SeekSpecified;

/**
 * A channel's chain as one orderer serves it through Deliver, with the checks a Fabric peer makes:
 * consecutive numbers, each header's previous hash and data hash, a quorum of valid consenter
 * signatures on every block after the genesis block.
 *
 * @param blocks blocks 0 to height - 1
 */
record Chain(List<Block> blocks) {

  /** Reads blocks 0 to {@code height - 1} from {@code orderer}. */
  static Chain read(Channel orderer, EnvelopeFactory reader, long height)
      throws InterruptedException {
    SeekInfo seek =
        SeekInfo.newBuilder()
            .setStart(specified(0))
            .setStop(specified(height - 1))
            .setBehavior(SeekInfo.SeekBehavior.FAIL_IF_NOT_READY)
            .build();
    DeliverCalls.Answer answer =
        DeliverCalls.request(
            orderer,
            reader.seek(ProcessCluster.CHANNEL, seek, ByteString.EMPTY),
            Duration.ofMinutes(1));
    if (answer.status() != Status.SUCCESS) {
      throw new IllegalStateException(
          "Deliver of blocks 0.." + (height - 1) + " answered " + answer.status());
    }
    return new Chain(answer.blocks());
  }

  /** What is wrong with this chain, or an empty list. */
  List<String> problems(BlockSignatureVerifier signatures) {
    List<String> problems = new ArrayList<>();
    for (int n = 0; n < blocks.size(); n++) {
      BlockHeader header = blocks.get(n).getHeader();
      if (header.getNumber() != n) {
        problems.add("block at position " + n + " has number " + header.getNumber());
      }
      if (n > 0
          && !Arrays.equals(
              BlockHashing.headerHash(blocks.get(n - 1).getHeader()),
              header.getPreviousHash().toByteArray())) {
        problems.add("block " + n + "'s previous hash is not block " + (n - 1) + "'s hash");
      }
      if (!Arrays.equals(
          BlockHashing.dataHash(blocks.get(n).getData()), header.getDataHash().toByteArray())) {
        problems.add("block " + n + "'s data hash does not match its data");
      }
      if (n > 0) {
        int number = n;
        signatures
            .check(header, blocks.get(n).getMetadata())
            .invalidReason()
            .ifPresent(reason -> problems.add("block " + number + ": " + reason));
      }
    }
    return problems;
  }

  /** The headers and data, which every replica must agree on (signature sets may differ). */
  List<List<ByteString>> content() {
    return blocks.stream()
        .map(b -> List.of(b.getHeader().toByteString(), b.getData().toByteString()))
        .toList();
  }

  /** How often each transaction id occurs in the chain's data. */
  Map<String, Integer> txIdCounts() {
    Map<String, Integer> counts = new HashMap<>();
    for (Block block : blocks.subList(Math.min(1, blocks.size()), blocks.size())) {
      for (ByteString data : block.getData().getDataList()) {
        counts.merge(txId(data), 1, Integer::sum);
      }
    }
    return counts;
  }

  private static String txId(ByteString envelope) {
    try {
      Payload payload = Payload.parseFrom(Envelope.parseFrom(envelope).getPayload());
      return ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getTxId();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("an ordered envelope does not parse", e);
    }
  }

  private static SeekPosition specified(long number) {
    return SeekPosition.newBuilder()
        .setSpecified(SeekSpecified.newBuilder().setNumber(number))
        .build();
  }
}
