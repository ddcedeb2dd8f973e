package io.rubinbft.orderer.policy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.crypto.Fixtures;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.MspConfigException;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Orderers;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;

/** The fixture channel's MSPs and policies, built from the genesis block as a node would. */
public final class GenesisChannel {

  public static final CryptoProvider PROVIDER = CryptoProvider.preferNative();

  private GenesisChannel() {}

  public static ChannelMsps msps() {
    try {
      return ChannelMsps.fromConfig(
          Fixtures.genesisConfig(), PROVIDER, ChannelMsps.DEFAULT_CACHE_CAPACITY);
    } catch (MspConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  public static ChannelPolicies policies() {
    return policies(Fixtures.genesisConfig());
  }

  public static ChannelPolicies policies(Config config) {
    try {
      return ChannelPolicies.fromConfig(
          config, new SignerVerifier(msps(), new EcdsaVerifier(PROVIDER)));
    } catch (PolicyConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An envelope's signature as Fabric's EnvelopeAsSignedData reads it. */
  public static SignedData signedData(Envelope envelope) {
    try {
      Payload payload = Payload.parseFrom(envelope.getPayload());
      SignatureHeader header = SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader());
      return new SignedData(envelope.getPayload(), header.getCreator(), envelope.getSignature());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The serialized identity of consenter {@code id} in the genesis ConsenterMapping. */
  public static ByteString consenterIdentity(long id) {
    Config config = Fixtures.genesisConfig();
    try {
      Orderers orderers =
          Orderers.parseFrom(
              config
                  .getChannelGroup()
                  .getGroupsOrThrow("Orderer")
                  .getValuesOrThrow("Orderers")
                  .getValue());
      for (Consenter consenter : orderers.getConsenterMappingList()) {
        if (consenter.getId() == id) {
          return SerializedIdentity.newBuilder()
              .setMspid(consenter.getMspId())
              .setIdBytes(consenter.getIdentity())
              .build()
              .toByteString();
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalArgumentException("no consenter " + id + " in the genesis block");
  }
}
