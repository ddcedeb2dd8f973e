package io.rubinbft.orderer.deliver;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.policy.PolicyResult;
import io.rubinbft.orderer.policy.SignedData;
import io.rubinbft.orderer.validation.ChannelRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.jspecify.annotations.Nullable;

/**
 * Fabric's SessionAccessControl for one Deliver request: before each block, the client's
 * certificate must not have expired (unless expiry checks are off), and /Channel/Readers
 * (/Channel/Orderer/Readers in maintenance mode) is evaluated again whenever the channel's current
 * rules differ from those it was last satisfied under (a new config yields new rules, as a new
 * config sequence does in Fabric). Not thread-safe: one per request.
 */
final class ReaderAccess {

  private final SignedData request;
  private final Optional<Identity> client;
  private @Nullable ChannelRules satisfiedUnder;

  private ReaderAccess(SignedData request, Optional<Identity> client) {
    this.request = request;
    this.client = client;
  }

  /**
   * @param envelope a request the DeliverValidator accepted
   * @param client the creator as the validator found it, for its expiry; empty when expiry is not
   *     checked
   */
  static ReaderAccess of(Envelope envelope, Optional<Identity> client) {
    try {
      Payload payload = Payload.parseFrom(envelope.getPayload());
      SignatureHeader header = SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader());
      return new ReaderAccess(
          new SignedData(envelope.getPayload(), header.getCreator(), envelope.getSignature()),
          client);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("an accepted Deliver request does not parse", e);
    }
  }

  /** Why the client may not read the next block under {@code current} rules at {@code now}. */
  Optional<String> denial(ChannelRules current, Instant now) {
    if (client.isPresent() && client.get().isExpiredAt(now)) {
      return Optional.of(
          "deliver client identity expired "
              + Duration.between(client.get().notAfter(), now)
              + " before");
    }
    if (current == satisfiedUnder) {
      return Optional.empty();
    }
    PolicyResult readers = current.policies().evaluate(current.readersPolicy(), List.of(request));
    if (!readers.satisfied()) {
      return Optional.of(readers.failure());
    }
    satisfiedUnder = current;
    return Optional.empty();
  }
}
