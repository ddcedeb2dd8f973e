package io.rubinbft.orderer.e2e;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Channel;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.testing.DeliverCalls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.function.Function;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.BlockMetadataIndex;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.LastConfig;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo;

/**
 * A channel's chain as one orderer serves it through Deliver, checked block by block as a Fabric
 * peer checks it: consecutive numbers, each header's previous hash and data hash, a quorum of valid
 * consenter signatures on every block after the genesis block, and each block's last config index
 * (in the SIGNATURES and the LAST_CONFIG metadata) naming the newest config block at or before it.
 * Only the headers (whose data hashes were checked against the data), the transaction ids, the
 * envelope counts and the config updates are kept, so long chains stay small.
 *
 * @param headers the headers of blocks 0 to height - 1
 * @param txIdCounts how often each transaction id occurs in the chain's data (config blocks aside)
 * @param envelopeCounts the number of envelopes in each block, by block number
 * @param dataBytes the bytes of each block's envelopes, by block number
 * @param configUpdates each config block's {@code last_update} (the submitted CONFIG_UPDATE
 *     envelope), by block number in chain order; config blocks hold their CONFIG envelope alone
 * @param problems what is wrong with the chain, empty if nothing
 */
record Chain(
    List<BlockHeader> headers,
    Map<String, Integer> txIdCounts,
    List<Integer> envelopeCounts,
    List<Long> dataBytes,
    SequencedMap<Long, ByteString> configUpdates,
    List<String> problems) {

  /**
   * Reads and checks blocks 0 to {@code height - 1} from {@code orderer}.
   *
   * @param tlsCertHash the SHA-256 of the connection's client certificate, empty without one
   */
  static Chain read(
      Channel orderer,
      String channelId,
      EnvelopeFactory reader,
      ByteString tlsCertHash,
      long height,
      Function<Block, Optional<String>> signatures)
      throws InterruptedException {
    SeekInfo seek = SeekInfos.range(0, height - 1);
    Chain chain =
        new Chain(
            new ArrayList<>(),
            new HashMap<>(),
            new ArrayList<>(),
            new ArrayList<>(),
            new LinkedHashMap<>(),
            new ArrayList<>());
    Status status =
        DeliverCalls.stream(
            orderer,
            reader.seek(channelId, seek, tlsCertHash),
            ProcessCluster.PATIENCE,
            block -> chain.check(block, signatures));
    if (status != Status.SUCCESS) {
      throw new IllegalStateException(
          "Deliver of blocks 0.." + (height - 1) + " answered " + status);
    }
    return new Chain(
        List.copyOf(chain.headers),
        Map.copyOf(chain.txIdCounts),
        List.copyOf(chain.envelopeCounts),
        List.copyOf(chain.dataBytes),
        Collections.unmodifiableSequencedMap(chain.configUpdates),
        List.copyOf(chain.problems));
  }

  private void check(Block block, Function<Block, Optional<String>> signatures) {
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
      signatures.apply(block).ifPresent(problems::add);
      if (!checkConfig(block)) {
        for (ByteString data : block.getData().getDataList()) {
          txIdCounts.merge(txId(data), 1, Integer::sum);
        }
      }
    }
    envelopeCounts.add(block.getData().getDataCount());
    dataBytes.add(block.getData().getDataList().stream().mapToLong(ByteString::size).sum());
    headers.add(header);
  }

  /**
   * Records a config block's update; checks the block's last config index in both entries.
   *
   * @return whether the block is a config block (whose CONFIG envelope has no tx id)
   */
  private boolean checkConfig(Block block) {
    long number = block.getHeader().getNumber();
    List<ByteString> data = block.getData().getDataList();
    boolean config = data.stream().anyMatch(EnvelopeHeaders::isConfigEnvelope);
    if (config) {
      if (data.size() != 1) {
        problems.add("config block " + number + " holds " + data.size() + " envelopes");
      }
      configUpdates.put(number, lastUpdate(data.getFirst()));
    }
    long expected = configUpdates.isEmpty() ? 0 : configUpdates.lastEntry().getKey();
    long signatures = LastConfigIndex.of(block);
    long lastConfig = lastConfigEntry(block);
    if (signatures != expected || lastConfig != expected) {
      problems.add(
          String.format(
              "block %d names config block %d (SIGNATURES) and %d (LAST_CONFIG), not %d",
              number, signatures, lastConfig, expected));
    }
    return config;
  }

  private static ByteString lastUpdate(ByteString envelope) {
    try {
      Payload payload = Payload.parseFrom(Envelope.parseFrom(envelope).getPayload());
      return ConfigEnvelope.parseFrom(payload.getData()).getLastUpdate().toByteString();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("an ordered CONFIG envelope does not parse", e);
    }
  }

  // Fabric deprecated the LAST_CONFIG slot in favour of the orderer metadata's copy, but still
  // writes it, and peers still read it: the chain checks the slot ours fills.
  @SuppressWarnings("deprecation")
  private static long lastConfigEntry(Block block) {
    try {
      Metadata metadata =
          Metadata.parseFrom(block.getMetadata().getMetadata(BlockMetadataIndex.LAST_CONFIG_VALUE));
      return LastConfig.parseFrom(metadata.getValue()).getIndex();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a LAST_CONFIG entry does not parse", e);
    }
  }

  private static String txId(ByteString envelope) {
    try {
      Payload payload = Payload.parseFrom(Envelope.parseFrom(envelope).getPayload());
      return ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getTxId();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("an ordered envelope does not parse", e);
    }
  }
}
