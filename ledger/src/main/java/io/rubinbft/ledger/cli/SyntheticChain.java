package io.rubinbft.ledger.cli;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * A chain of well-formed Fabric blocks with random envelopes, from a seed: for the benchmark and
 * for tests that need many blocks. Each envelope carries a channel header with a fresh 64-hex tx
 * id; the rest of its payload is random bytes up to the requested size.
 */
public final class SyntheticChain {

  /** Fabric's blocks carry five metadata entries (SIGNATURES .. COMMIT_HASH). */
  private static final int METADATA_ENTRIES = 5;

  private static final int SIGNATURE_BYTES = 71;

  private final Random random;
  private final String channel;
  private final int envelopesPerBlock;
  private final int envelopeBytes;
  private long nextNumber;
  private byte[] previousHash;

  /** A chain that continues after {@code last} (empty: starts at block 0). */
  public SyntheticChain(
      long seed,
      String channel,
      int envelopesPerBlock,
      int envelopeBytes,
      Optional<BlockHeader> last) {
    this.random = new Random(seed);
    this.channel = channel;
    this.envelopesPerBlock = envelopesPerBlock;
    this.envelopeBytes = envelopeBytes;
    this.nextNumber = last.map(header -> header.getNumber() + 1).orElse(0L);
    this.previousHash = last.map(BlockHashing::headerHash).orElse(new byte[0]);
  }

  /** The next block of the chain. */
  public Block next() {
    BlockData.Builder data = BlockData.newBuilder();
    for (int i = 0; i < envelopesPerBlock; i++) {
      data.addData(envelope().toByteString());
    }
    BlockData blockData = data.build();
    BlockHeader header =
        BlockHeader.newBuilder()
            .setNumber(nextNumber)
            .setPreviousHash(ByteString.copyFrom(previousHash))
            .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(blockData)))
            .build();
    BlockMetadata.Builder metadata = BlockMetadata.newBuilder();
    metadata.addMetadata(ByteString.copyFrom(randomBytes(SIGNATURE_BYTES)));
    for (int i = 1; i < METADATA_ENTRIES; i++) {
      metadata.addMetadata(ByteString.EMPTY);
    }
    nextNumber++;
    previousHash = BlockHashing.headerHash(header);
    return Block.newBuilder().setHeader(header).setData(blockData).setMetadata(metadata).build();
  }

  private Envelope envelope() {
    ChannelHeader channelHeader =
        ChannelHeader.newBuilder()
            .setType(HeaderType.ENDORSER_TRANSACTION_VALUE)
            .setChannelId(channel)
            .setTxId(HexFormat.of().formatHex(randomBytes(32)))
            .build();
    Header header = Header.newBuilder().setChannelHeader(channelHeader.toByteString()).build();
    int overhead = header.getSerializedSize() + SIGNATURE_BYTES + 16;
    Payload payload =
        Payload.newBuilder()
            .setHeader(header)
            .setData(ByteString.copyFrom(randomBytes(Math.max(0, envelopeBytes - overhead))))
            .build();
    return Envelope.newBuilder()
        .setPayload(payload.toByteString())
        .setSignature(ByteString.copyFrom(randomBytes(SIGNATURE_BYTES)))
        .build();
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
