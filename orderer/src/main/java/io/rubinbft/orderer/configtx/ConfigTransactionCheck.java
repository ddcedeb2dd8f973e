package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.policy.ChannelPolicies;
import io.rubinbft.orderer.policy.PolicyPaths;
import io.rubinbft.orderer.policy.PolicyResult;
import io.rubinbft.orderer.policy.SignedData;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * A replica's check of a CONFIG envelope another orderer made (Fabric's ProcessConfigMsg as its BFT
 * verifier runs it): the envelope is a CONFIG for this channel, signed by an identity that
 * satisfies /Channel/Writers (/Channel/Orderer/Writers in maintenance mode, as Fabric's SigFilter),
 * and its {@code last_update}, applied to THIS replica's current config, yields exactly the config
 * it carries. Deterministic: it depends on the config and the bytes only.
 */
public final class ConfigTransactionCheck {

  private final ConfigUpdateProcessor processor;
  private final ChannelPolicies policies;

  /**
   * @param processor applies updates to the config in force at the checked block
   * @param policies the policies of that config
   */
  public ConfigTransactionCheck(ConfigUpdateProcessor processor, ChannelPolicies policies) {
    this.processor = processor;
    this.policies = policies;
  }

  /** Why {@code envelope} must not be ordered as the next config, or empty when it may. */
  public Optional<String> invalidReason(ByteString envelope) {
    try {
      return check(Envelope.parseFrom(envelope));
    } catch (InvalidProtocolBufferException e) {
      return Optional.of("config transaction does not decode: " + e.getMessage());
    }
  }

  private Optional<String> check(Envelope envelope) throws InvalidProtocolBufferException {
    Payload payload = Payload.parseFrom(envelope.getPayload());
    ChannelHeader header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
    String channelId = processor.current().channelId();
    if (header.getType() != HeaderType.CONFIG_VALUE || !header.getChannelId().equals(channelId)) {
      return Optional.of(
          "envelope of type "
              + header.getType()
              + " for channel '"
              + header.getChannelId()
              + "' is not a CONFIG envelope of channel '"
              + channelId
              + "'");
    }
    SignatureHeader signatureHeader =
        SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader());
    PolicyResult writers =
        policies.evaluate(
            processor.current().inMaintenance()
                ? PolicyPaths.ORDERER_WRITERS
                : PolicyPaths.CHANNEL_WRITERS,
            List.of(
                new SignedData(
                    envelope.getPayload(), signatureHeader.getCreator(), envelope.getSignature())));
    if (!writers.satisfied()) {
      return Optional.of("config transaction signer: " + writers.failure());
    }
    ConfigEnvelope carried = ConfigEnvelope.parseFrom(payload.getData());
    ConfigEnvelope recomputed;
    try {
      recomputed = processor.propose(carried.getLastUpdate());
    } catch (ConfigUpdateException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
    if (!recomputed.getConfig().equals(carried.getConfig())) {
      return Optional.of(
          "config transaction's last_update does not produce the config it carries (sequence "
              + carried.getConfig().getSequence()
              + ", expected "
              + recomputed.getConfig().getSequence()
              + ")");
    }
    return Optional.empty();
  }
}
