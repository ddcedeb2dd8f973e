package io.rubinbft.orderer.e2e;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Channel;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.DeliverCalls;
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
 * A channel's chain as one orderer serves it through Deliver, checked block by block as a Fabric
 * peer checks it: consecutive numbers, each header's previous hash and data hash, a quorum of valid
 * consenter signatures on every block after the genesis block. Only the headers (whose data hashes
 * were checked against the data) and the transaction ids are kept, so long chains stay small.
 *
 * @param headers the headers of blocks 0 to height - 1
 * @param txIdCounts how often each transaction id occurs in the chain's data
 * @param problems what is wrong with the chain, empty if nothing
 */
record Chain(List<BlockHeader> headers, Map<String, Integer> txIdCounts, List<String> problems) {

  /** Reads and checks blocks 0 to {@code height - 1} from {@code orderer}. */
  static Chain read(
      Channel orderer, EnvelopeFactory reader, long height, BlockSignatureVerifier signatures)
      throws InterruptedException {
    SeekInfo seek =
        SeekInfo.newBuilder()
            .setStart(specified(0))
            .setStop(specified(height - 1))
            .setBehavior(SeekInfo.SeekBehavior.FAIL_IF_NOT_READY)
            .build();
    Chain chain = new Chain(new ArrayList<>(), new HashMap<>(), new ArrayList<>());
    Status status =
        DeliverCalls.stream(
            orderer,
            reader.seek(ProcessCluster.CHANNEL, seek, ByteString.EMPTY),
            ProcessCluster.PATIENCE,
            block -> chain.check(block, signatures));
    if (status != Status.SUCCESS) {
      throw new IllegalStateException(
          "Deliver of blocks 0.." + (height - 1) + " answered " + status);
    }
    return new Chain(List.copyOf(chain.headers), Map.copyOf(chain.txIdCounts), chain.problems);
  }

  private void check(Block block, BlockSignatureVerifier signatures) {
    BlockHeader header = block.getHeader();
    int position = headers.size();
    if (header.getNumber() != position) {
      problems.add("block at position " + position + " has number " + header.getNumber());
    }
    if (position > 0
        && !Arrays.equals(
            BlockHashing.headerHash(headers.getLast()), header.getPreviousHash().toByteArray())) {
      problems.add("block " + position + "'s previous hash is not block " + (position - 1) + "'s");
    }
    if (!Arrays.equals(
        BlockHashing.dataHash(block.getData()), header.getDataHash().toByteArray())) {
      problems.add("block " + position + "'s data hash does not match its data");
    }
    if (position > 0) {
      signatures
          .check(header, block.getMetadata())
          .invalidReason()
          .ifPresent(reason -> problems.add("block " + position + ": " + reason));
      for (ByteString data : block.getData().getDataList()) {
        txIdCounts.merge(txId(data), 1, Integer::sum);
      }
    }
    headers.add(header);
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
