package io.rubinbft.orderer.tools.loadgen;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.rubinbft.orderer.client.BlockStream;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.time.Duration;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;

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
    String what = "block " + number + " of channel '" + channel + "'";
    List<Block> blocks =
        BlockStream.readAll(
            orderer,
            envelopes.seek(channel, SeekInfos.range(number, number), tlsCertHash),
            1,
            Duration.ofMillis(timeoutMillis),
            what);
    if (blocks.size() != 1) {
      throw new IllegalStateException("cannot read " + what + ": got " + blocks.size() + " blocks");
    }
    return blocks.getFirst();
  }
}
