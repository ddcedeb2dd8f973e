package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.msp.IdentityResult;
import io.rubinbft.orderer.policy.SignedData;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * The one signature of a client envelope (Fabric's EnvelopeAsSignedData): the creator over the
 * payload. The creator is deserialized once; an invalid one is not looked at again.
 */
final class CreatorSignature {

  private CreatorSignature() {}

  /** The creator, when it is a valid identity of the channel. */
  static Optional<Identity> creator(ChannelRules rules, SignatureHeader header) {
    return rules.msps().deserialize(header.getCreator()) instanceof IdentityResult.Valid valid
        ? Optional.of(valid.identity())
        : Optional.empty();
  }

  /** [creator] when the creator is valid and its signature verifies, else []. */
  static List<Identity> verifiedSigners(
      ChannelRules rules, Envelope envelope, SignatureHeader header, Optional<Identity> creator) {
    if (creator.isEmpty()) {
      return List.of();
    }
    return rules
        .policies()
        .verifiedSigners(
            List.of(
                new SignedData(
                    envelope.getPayload(), header.getCreator(), envelope.getSignature())));
  }
}
