package io.rubinbft.orderer.loadgen;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.hyperledger.fabric.protos.orderer.SeekSpecified;

/** Reads one block through Deliver, e.g. a channel's genesis block for its consenter mapping. */
public final class ConfigBlockFetch {

  private ConfigBlockFetch() {}

  public static Block block(
      ManagedChannel orderer,
      EnvelopeFactory envelopes,
      String channel,
      long number,
      ByteString tlsCertHash,
      long timeoutMillis)
      throws InterruptedException {
    SeekPosition position =
        SeekPosition.newBuilder()
            .setSpecified(SeekSpecified.newBuilder().setNumber(number))
            .build();
    SeekInfo seek =
        SeekInfo.newBuilder()
            .setStart(position)
            .setStop(position)
            .setBehavior(SeekInfo.SeekBehavior.FAIL_IF_NOT_READY)
            .build();
    String what = "block " + number + " of channel '" + channel + "'";
    List<Block> blocks =
        DeliverStream.fetch(
            orderer, envelopes.seek(channel, seek, tlsCertHash), timeoutMillis, what);
    if (blocks.size() != 1) {
      throw new IllegalStateException("cannot read " + what + ": got " + blocks.size() + " blocks");
    }
    return blocks.getFirst();
  }
}
