package io.rubinbft.orderer.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.ConfigSignature;
import org.hyperledger.fabric.protos.common.ConfigUpdateEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.junit.jupiter.api.Test;

/**
 * The ConfigSignatures of Fabric's recorded config updates against the mod_policies they had to
 * satisfy (the config-update path will use exactly this evaluation).
 */
class ConfigUpdateSignaturesTest {

  private static final ChannelPolicies POLICIES = GenesisChannel.policies();

  /** Each ConfigSignature signs signature_header || config_update. */
  static List<SignedData> configSignatures(String file) throws InvalidProtocolBufferException {
    Envelope envelope = Envelope.parseFrom(Fixtures.bytes("config-update/" + file));
    ConfigUpdateEnvelope update =
        ConfigUpdateEnvelope.parseFrom(Payload.parseFrom(envelope.getPayload()).getData());
    List<SignedData> signatures = new ArrayList<>();
    for (ConfigSignature signature : update.getSignaturesList()) {
      signatures.add(
          new SignedData(
              signature.getSignatureHeader().concat(update.getConfigUpdate()),
              SignatureHeader.parseFrom(signature.getSignatureHeader()).getCreator(),
              signature.getSignature()));
    }
    return signatures;
  }

  @Test
  void theOrdererAdminsSignatureSatisfiesTheBatchSizeModPolicy()
      throws InvalidProtocolBufferException {
    List<SignedData> signatures = configSignatures("batchsize-update.envelope");

    assertThat(POLICIES.evaluate("/Channel/Orderer/Admins", signatures))
        .isEqualTo(PolicyResult.satisfiedResult());
  }

  @Test
  void theOrg1AdminAloneFailsItWithTheTextFabricAnswered() throws InvalidProtocolBufferException {
    List<SignedData> signatures = configSignatures("batchsize-update.org1-admin-only.envelope");
    String fabricInfo =
        JsonParser.parseString(Fixtures.text("config-update/submit-org1-admin-only-response.json"))
            .getAsJsonArray()
            .get(0)
            .getAsJsonObject()
            .get("info")
            .getAsString();

    String failure = POLICIES.evaluate("/Channel/Orderer/Admins", signatures).failure();

    assertThat(failure)
        .isEqualTo(
            "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy"
                + " requires 1 of the 'Admins' sub-policies to be satisfied");
    assertThat(fabricInfo).endsWith("/Channel/Orderer/BatchSize not satisfied: " + failure);
  }

  @Test
  void theOrg1AdminsSignatureSatisfiesTheAnchorPeerModPolicy()
      throws InvalidProtocolBufferException {
    List<SignedData> signatures = configSignatures("anchorpeer-update.envelope");

    assertThat(POLICIES.evaluate("/Channel/Application/Org1/Admins", signatures).satisfied())
        .isTrue();
    assertThat(POLICIES.evaluate("/Channel/Orderer/Admins", signatures).satisfied()).isFalse();
  }
}
