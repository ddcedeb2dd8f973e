package io.rubinbft.orderer.consensus;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.block.EnvelopeValidator;
import io.rubinbft.orderer.block.EnvelopeViews;
import io.rubinbft.orderer.validation.BroadcastResult;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.ChannelRules;
import java.time.Clock;
import java.util.Optional;

/**
 * The envelope half of a backup's proposal check: every proposed envelope must pass the same
 * Broadcast validation (structure, size, creator, signature, /Channel/Writers) a client's envelope
 * passes at this node's ingress. Envelopes this node already validated at ingress, byte for byte,
 * are not verified a second time.
 */
public final class BroadcastEnvelopeChecks {

  private BroadcastEnvelopeChecks() {}

  /**
   * The check for {@code rules}, skipping envelopes in {@code verified}, with creators' expiry
   * checked or not (Fabric's {@code General.Authentication.NoExpirationChecks}).
   */
  public static EnvelopeValidator of(
      ChannelRules rules, Clock clock, VerifiedEnvelopes verified, boolean expirationChecks) {
    BroadcastValidator validator =
        new BroadcastValidator(id -> Optional.of(rules), clock)
            .withExpirationChecks(expirationChecks);
    return envelope -> {
      if (verified.contains(envelope)) {
        return Optional.empty();
      }
      try {
        return validator.validate(EnvelopeViews.envelope(envelope))
                instanceof BroadcastResult.Rejected rejected
            ? Optional.of(rejected.verdict().info())
            : Optional.empty();
      } catch (InvalidProtocolBufferException e) {
        return Optional.of("proposed data is not an envelope: " + e.getMessage());
      }
    };
  }
}
