package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.policy.PolicyResult;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;

/**
 * Broadcast-side checks of an envelope, in Fabric's order and with Fabric's status codes and texts
 * (docs/VALIDATION.md): channel header, channel exists, header type, size (payload + signature),
 * creator expiry, creator signature against /Channel/Writers (in maintenance mode: normal
 * transactions refused with 503 before these, and /Channel/Orderer/Writers instead, as Fabric's
 * StandardChannel and SigFilter); a CONFIG_UPDATE's refusal by the last three carries Fabric's
 * "config update for existing channel did not pass initial checks: ". Thread-safe.
 */
public final class BroadcastValidator {

  /** The prefix of a CONFIG_UPDATE's refusal by the channel's filters. */
  public static final String INITIAL_CHECKS =
      "config update for existing channel did not pass initial checks: ";

  /**
   * Fabric's refusal of a normal transaction in maintenance mode (ErrMaintenanceMode wrapped by
   * StandardChannel.ProcessNormalMsg), answered SERVICE_UNAVAILABLE.
   */
  public static final String MAINTENANCE_MODE =
      "normal transactions are rejected: maintenance mode";

  static final String CONFIG_UPDATE_NOT_ORDERED =
      "a CONFIG_UPDATE is not ordered as is: orderers order the CONFIG envelope made from it";

  private final Function<String, Optional<ChannelRules>> channels;
  private final Clock clock;
  private final boolean acceptsConfigUpdates;
  private final boolean expirationChecks;

  /**
   * The check of envelopes in a proposed block: a CONFIG_UPDATE is refused there.
   *
   * @param channels the current rules of a channel this node serves, by channel ID
   * @param clock the time creator certificates must not have expired at
   */
  public BroadcastValidator(Function<String, Optional<ChannelRules>> channels, Clock clock) {
    this(channels, clock, false);
  }

  private BroadcastValidator(
      Function<String, Optional<ChannelRules>> channels,
      Clock clock,
      boolean acceptsConfigUpdates) {
    this(channels, clock, acceptsConfigUpdates, true);
  }

  private BroadcastValidator(
      Function<String, Optional<ChannelRules>> channels,
      Clock clock,
      boolean acceptsConfigUpdates,
      boolean expirationChecks) {
    this.channels = channels;
    this.clock = clock;
    this.acceptsConfigUpdates = acceptsConfigUpdates;
    this.expirationChecks = expirationChecks;
  }

  /**
   * This check with the creator's expiry checked or not: Fabric's {@code
   * General.Authentication.NoExpirationChecks} leaves its expiration rule out of the channel's
   * filters, at Broadcast and in its BFT verifier alike.
   */
  public BroadcastValidator withExpirationChecks(boolean on) {
    return new BroadcastValidator(channels, clock, acceptsConfigUpdates, on);
  }

  /**
   * The check at Broadcast ingress: a CONFIG_UPDATE passes the same size and /Channel/Writers
   * checks as a normal message (Fabric's filters on the config path), and is then accepted for the
   * config update processing its header type calls for.
   */
  public static BroadcastValidator forClients(
      Function<String, Optional<ChannelRules>> channels, Clock clock) {
    return new BroadcastValidator(channels, clock, true);
  }

  public BroadcastResult validate(Envelope envelope) {
    Payload payload;
    ChannelHeader channelHeader;
    try {
      payload = Decoding.payload(envelope.getPayload());
      if (!payload.hasHeader()) {
        return reject(Verdict.badRequest("could not determine channel ID: header not set"));
      }
      if (payload.getHeader().getChannelHeader().isEmpty()) {
        return reject(Verdict.badRequest("could not determine channel ID: channel header not set"));
      }
      channelHeader = Decoding.channelHeader(payload);
    } catch (Decoding.Malformed e) {
      return reject(Verdict.badRequest("could not determine channel ID: " + e.getMessage()));
    }
    Optional<ChannelRules> rules = channels.apply(channelHeader.getChannelId());
    if (rules.isEmpty()) {
      return reject(Verdict.badRequest("channel does not exist"));
    }
    Optional<Verdict> typeProblem = typeProblem(channelHeader.getType());
    if (typeProblem.isPresent()) {
      return reject(typeProblem.get());
    }
    if (rules.get().maintenance() && channelHeader.getType() != HeaderType.CONFIG_UPDATE_VALUE) {
      return reject(Verdict.serviceUnavailable(MAINTENANCE_MODE));
    }
    BroadcastResult result = filter(envelope, payload, channelHeader, rules.get());
    if (channelHeader.getType() == HeaderType.CONFIG_UPDATE_VALUE
        && result instanceof BroadcastResult.Rejected(Verdict verdict)) {
      // Fabric's StandardChannel.ProcessConfigUpdateMsg wraps its filters' refusals so.
      return reject(new Verdict(verdict.status(), INITIAL_CHECKS + verdict.info()));
    }
    return result;
  }

  /** Fabric's channel filters, in its order: size, expiry, /Channel/Writers. */
  private BroadcastResult filter(
      Envelope envelope, Payload payload, ChannelHeader channelHeader, ChannelRules rules) {
    Optional<String> tooLarge = sizeProblem(envelope, rules.absoluteMaxBytes());
    if (tooLarge.isPresent()) {
      return reject(Verdict.badRequest(tooLarge.get()));
    }
    return authorize(envelope, payload, channelHeader, rules);
  }

  /**
   * Fabric's sizefilter: the payload and the signature together (not the field tags) against
   * AbsoluteMaxBytes, in its words.
   */
  public static Optional<String> sizeProblem(Envelope envelope, long absoluteMaxBytes) {
    long size = (long) envelope.getPayload().size() + envelope.getSignature().size();
    if (size <= absoluteMaxBytes) {
      return Optional.empty();
    }
    return Optional.of(
        "message payload is "
            + size
            + " bytes and exceeds maximum allowed "
            + absoluteMaxBytes
            + " bytes");
  }

  /** Fabric's StandardChannel.ClassifyMsg: every type but these three is a normal message. */
  @SuppressWarnings("deprecation") // ORDERER_TRANSACTION: deprecated because v3 rejects it, as here
  private Optional<Verdict> typeProblem(int type) {
    if (type == HeaderType.CONFIG_UPDATE_VALUE) {
      return acceptsConfigUpdates
          ? Optional.empty()
          : Optional.of(Verdict.badRequest(CONFIG_UPDATE_NOT_ORDERED));
    }
    if (type == HeaderType.CONFIG_VALUE) {
      return Optional.of(
          Verdict.badRequest("message is of type that cannot be processed directly"));
    }
    if (type == HeaderType.ORDERER_TRANSACTION_VALUE) {
      return Optional.of(Verdict.badRequest("message is of type that is no longer supported"));
    }
    return Optional.empty();
  }

  private BroadcastResult authorize(
      Envelope envelope, Payload payload, ChannelHeader channelHeader, ChannelRules rules) {
    SignatureHeader signatureHeader;
    try {
      signatureHeader = Decoding.signatureHeader(payload);
    } catch (Decoding.Malformed e) {
      return reject(
          Verdict.badRequest("could not convert message to signedData: " + e.getMessage()));
    }
    Optional<Identity> creator = CreatorSignature.creator(rules, signatureHeader);
    if (expirationChecks && creator.isPresent() && creator.get().isExpiredAt(clock.instant())) {
      return reject(Verdict.badRequest("broadcast client identity expired"));
    }
    List<Identity> signers =
        CreatorSignature.verifiedSigners(rules, envelope, signatureHeader, creator);
    PolicyResult writers = rules.policies().evaluateSigners(rules.writersPolicy(), signers);
    if (!writers.satisfied()) {
      return reject(Verdict.forbidden(writers.failure() + ": permission denied"));
    }
    return new BroadcastResult.Accepted(channelHeader, signers.stream().findFirst());
  }

  private static BroadcastResult reject(Verdict verdict) {
    return new BroadcastResult.Rejected(verdict);
  }
}
