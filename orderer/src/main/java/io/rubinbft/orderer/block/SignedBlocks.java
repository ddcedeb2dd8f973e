package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Collection;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.BlockMetadataIndex;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.MetadataSignature;

/** Reads and replaces the SIGNATURES metadata entry, where consenter signatures live. */
public final class SignedBlocks {

  private static final int SIGNATURES = BlockMetadataIndex.SIGNATURES_VALUE;

  private SignedBlocks() {}

  /**
   * The SIGNATURES entry of {@code metadata}.
   *
   * @throws InvalidProtocolBufferException when it is absent or not a {@code common.Metadata}
   */
  public static Metadata signatures(BlockMetadata metadata) throws InvalidProtocolBufferException {
    if (metadata.getMetadataCount() <= SIGNATURES) {
      throw new InvalidProtocolBufferException("block metadata has no SIGNATURES entry");
    }
    return Metadata.parseFrom(metadata.getMetadata(SIGNATURES));
  }

  /**
   * {@code block} carrying exactly {@code signatures} (in that order) next to its unchanged
   * SIGNATURES value; every other entry, the header and the data stay byte for byte.
   */
  public static Block withSignatures(Block block, Collection<MetadataSignature> signatures) {
    Metadata current;
    try {
      current = signatures(block.getMetadata());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("block " + block.getHeader().getNumber() + ": " + e, e);
    }
    ByteString entry =
        current.toBuilder().clearSignatures().addAllSignatures(signatures).build().toByteString();
    return block.toBuilder()
        .setMetadata(block.getMetadata().toBuilder().setMetadata(SIGNATURES, entry))
        .build();
  }
}
