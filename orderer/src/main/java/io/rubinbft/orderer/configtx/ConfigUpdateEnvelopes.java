package io.rubinbft.orderer.configtx;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.policy.SignedData;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigSignature;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigUpdateEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * Reads a submitted CONFIG_UPDATE envelope as Fabric's EnvelopeToConfigUpdate and
 * ConfigUpdateEnvelopeAsSignedData do: the ConfigUpdate, and one signed datum per ConfigSignature
 * (its creator over {@code signature_header || config_update}).
 *
 * @param channelId the channel header's channel id
 * @param update the decoded ConfigUpdate
 * @param signatures the ConfigSignatures as signed data, in envelope order
 */
public record ConfigUpdateEnvelopes(
    String channelId, ConfigUpdate update, List<SignedData> signatures) {

  public ConfigUpdateEnvelopes {
    signatures = List.copyOf(signatures);
  }

  /**
   * @throws ConfigUpdateException (400) when the envelope is not a well-formed CONFIG_UPDATE
   */
  public static ConfigUpdateEnvelopes read(Envelope envelope) throws ConfigUpdateException {
    try {
      return decode(envelope);
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      throw ConfigUpdateException.badRequest(
          "error converting envelope to config update: " + e.getMessage());
    }
  }

  private static ConfigUpdateEnvelopes decode(Envelope envelope)
      throws InvalidProtocolBufferException {
    Payload payload = Payload.parseFrom(envelope.getPayload());
    if (!payload.hasHeader()) {
      throw new IllegalArgumentException("envelope must have a Header");
    }
    ChannelHeader header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
    if (header.getType() != HeaderType.CONFIG_UPDATE_VALUE) {
      throw new IllegalArgumentException(
          "not a tx of type CONFIG_UPDATE (type is " + header.getType() + ")");
    }
    ConfigUpdateEnvelope updateEnvelope = ConfigUpdateEnvelope.parseFrom(payload.getData());
    ConfigUpdate update = ConfigUpdate.parseFrom(updateEnvelope.getConfigUpdate());
    List<SignedData> signatures = new ArrayList<>();
    for (ConfigSignature signature : updateEnvelope.getSignaturesList()) {
      ByteString signatureHeader = signature.getSignatureHeader();
      SignatureHeader parsed = SignatureHeader.parseFrom(signatureHeader);
      signatures.add(
          new SignedData(
              signatureHeader.concat(updateEnvelope.getConfigUpdate()),
              parsed.getCreator(),
              signature.getSignature()));
    }
    return new ConfigUpdateEnvelopes(header.getChannelId(), update, signatures);
  }
}
