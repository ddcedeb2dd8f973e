package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.channel.ChannelIds;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.BlockMetadata;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.LastConfig;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * Block 0 of a channel as configtxgen's {@code -outputBlock} writes it: one unsigned CONFIG
 * envelope holding the config, a channel header of version 1 with a whole-second timestamp and tx
 * id {@code hex(SHA-256(nonce || creator))} (the creator is empty), Fabric's data hash, and five
 * metadata entries of which only SIGNATURES is set, to {@code Metadata{value:
 * OrdererBlockMetadata{last_config{index 0}}}}.
 */
public final class GenesisBlockFactory {

  /** configtxgen's nonce length. */
  static final int NONCE_BYTES = 24;

  /** The message version configtxgen writes into a genesis block's channel header. */
  private static final int CHANNEL_HEADER_VERSION = 1;

  /** SIGNATURES, LAST_CONFIG, TRANSACTIONS_FILTER, ORDERER, COMMIT_HASH. */
  private static final int METADATA_ENTRIES = 5;

  private GenesisBlockFactory() {}

  /** A genesis block with a fresh random nonce, stamped {@code now}. */
  public static Block create(String channelId, Config config, SecureRandom random, Instant now) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    return create(channelId, config, nonce, now);
  }

  /** A genesis block with the given nonce and timestamp (sub-second part dropped). */
  public static Block create(String channelId, Config config, byte[] nonce, Instant timestamp) {
    ChannelIds.invalidReason(channelId)
        .ifPresent(
            reason -> {
              throw new IllegalArgumentException("channel name is not valid: " + reason);
            });
    SignatureHeader signatureHeader =
        SignatureHeader.newBuilder().setNonce(ByteString.copyFrom(nonce)).build();
    ChannelHeader channelHeader =
        ChannelHeader.newBuilder()
            .setType(HeaderType.CONFIG_VALUE)
            .setVersion(CHANNEL_HEADER_VERSION)
            .setTimestamp(Timestamp.newBuilder().setSeconds(timestamp.getEpochSecond()))
            .setChannelId(channelId)
            .setTxId(txId(nonce, ByteString.EMPTY))
            .build();
    Payload payload =
        Payload.newBuilder()
            .setHeader(
                Header.newBuilder()
                    .setChannelHeader(channelHeader.toByteString())
                    .setSignatureHeader(signatureHeader.toByteString()))
            .setData(ConfigEnvelope.newBuilder().setConfig(config).build().toByteString())
            .build();
    Envelope envelope = Envelope.newBuilder().setPayload(payload.toByteString()).build();
    BlockData data = BlockData.newBuilder().addData(envelope.toByteString()).build();
    BlockHeader header =
        BlockHeader.newBuilder()
            .setNumber(0)
            .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(data)))
            .build();
    return Block.newBuilder().setHeader(header).setData(data).setMetadata(metadata()).build();
  }

  /** Fabric's transaction id: the hex SHA-256 of the nonce followed by the creator bytes. */
  static String txId(byte[] nonce, ByteString creator) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      sha256.update(nonce);
      sha256.update(creator.toByteArray());
      return HexFormat.of().formatHex(sha256.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  private static BlockMetadata metadata() {
    OrdererBlockMetadata lastConfig =
        OrdererBlockMetadata.newBuilder().setLastConfig(LastConfig.getDefaultInstance()).build();
    BlockMetadata.Builder metadata =
        BlockMetadata.newBuilder()
            .addMetadata(
                Metadata.newBuilder().setValue(lastConfig.toByteString()).build().toByteString());
    for (int i = 1; i < METADATA_ENTRIES; i++) {
      metadata.addMetadata(ByteString.EMPTY);
    }
    return metadata.build();
  }
}
