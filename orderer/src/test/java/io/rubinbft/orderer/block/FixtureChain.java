package io.rubinbft.orderer.block;

import com.google.gson.JsonObject;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.Fixtures;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.OrdererBlockMetadata;

/** The fixtures' chain and keys, read for the block tests. */
final class FixtureChain {

  static final int HEIGHT = 10;
  static final CryptoProvider CRYPTO = CryptoProvider.preferNative();

  private FixtureChain() {}

  static ChannelConfig genesisConfig() {
    try {
      return ConfigBlockReader.read(Fixtures.block(0));
    } catch (InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  static BlockSignatureVerifier verifier() {
    return new BlockSignatureVerifier(
        genesisConfig().consenters(), new EcKeys(CRYPTO), new EcdsaVerifier(CRYPTO));
  }

  /** The OrdererBlockMetadata in a block's SIGNATURES entry. */
  static OrdererBlockMetadata ordererMetadata(Block block) {
    try {
      return OrdererBlockMetadata.parseFrom(
          SignedBlocks.signatures(block.getMetadata()).getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Orderer {@code n}'s signer, with the PKCS#8 key cryptogen wrote to its keystore. */
  static EcdsaSigner ordererSigner(int n) {
    String pem =
        new String(
            Fixtures.bytes(Fixtures.ordererDir(n) + "/msp/keystore/priv_sk"),
            StandardCharsets.UTF_8);
    try {
      return new EcdsaSigner(CRYPTO, new EcKeys(CRYPTO).privateKeyFromPem(pem));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonObject facts(int block) {
    return Fixtures.json("blocks/facts.json").getAsJsonArray("blocks").get(block).getAsJsonObject();
  }
}
