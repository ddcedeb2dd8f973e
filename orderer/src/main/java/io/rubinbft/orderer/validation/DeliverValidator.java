package io.rubinbft.orderer.validation;

import com.google.protobuf.ByteString;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.policy.PolicyResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.orderer.SeekInfo;

/**
 * Deliver-side checks of a DELIVER_SEEK_INFO envelope, in Fabric's order and with its status codes
 * (docs/VALIDATION.md): headers and timestamp window and TLS binding (400), channel exists (404),
 * SeekInfo decodes (400), client identity not expired and signature satisfies /Channel/Readers
 * (/Channel/Orderer/Readers in maintenance mode, as Fabric's SigFilter) (403). Thread-safe.
 */
public final class DeliverValidator {

  /** Fabric's default {@code General.Authentication.TimeWindow}. */
  public static final Duration DEFAULT_TIME_WINDOW = Duration.ofMinutes(15);

  private final Function<String, Optional<ChannelRules>> channels;
  private final Clock clock;
  private final Duration timeWindow;
  private final boolean mutualTls;
  private final Sha256 sha256;
  private final boolean expirationChecks;

  /**
   * @param timeWindow how far a request's channel-header timestamp may be from the server's clock
   * @param mutualTls whether clients authenticate with TLS certificates, which binds requests to
   *     them through {@code channel_header.tls_cert_hash}
   */
  public DeliverValidator(
      Function<String, Optional<ChannelRules>> channels,
      Clock clock,
      Duration timeWindow,
      boolean mutualTls,
      Sha256 sha256) {
    this(channels, clock, timeWindow, mutualTls, sha256, true);
  }

  private DeliverValidator(
      Function<String, Optional<ChannelRules>> channels,
      Clock clock,
      Duration timeWindow,
      boolean mutualTls,
      Sha256 sha256,
      boolean expirationChecks) {
    this.channels = channels;
    this.clock = clock;
    this.timeWindow = timeWindow;
    this.mutualTls = mutualTls;
    this.sha256 = sha256;
    this.expirationChecks = expirationChecks;
  }

  /**
   * This check with the client's expiry checked or not (Fabric's {@code
   * General.Authentication.NoExpirationChecks}, which its Deliver handler honours too).
   */
  public DeliverValidator withExpirationChecks(boolean on) {
    return new DeliverValidator(channels, clock, timeWindow, mutualTls, sha256, on);
  }

  /** Whether a client's expiry is checked, at the request and before each block. */
  public boolean expirationChecks() {
    return expirationChecks;
  }

  /**
   * @param clientCertificate the DER of the TLS client certificate of the connection, if any
   */
  public DeliverResult validate(Envelope envelope, Optional<ByteString> clientCertificate) {
    Instant now = clock.instant();
    try {
      Payload payload = Decoding.payload(envelope.getPayload());
      if (!payload.hasHeader()) {
        return reject(Verdict.badRequest("envelope has no header"));
      }
      ChannelHeader channelHeader = Decoding.channelHeader(payload);
      SignatureHeader signatureHeader = Decoding.signatureHeader(payload);
      Optional<String> headerProblem = headerProblem(channelHeader, clientCertificate, now);
      if (headerProblem.isPresent()) {
        return reject(Verdict.badRequest(headerProblem.get()));
      }
      Optional<ChannelRules> rules = channels.apply(channelHeader.getChannelId());
      if (rules.isEmpty()) {
        return reject(Verdict.notFound("channel " + channelHeader.getChannelId() + " not found"));
      }
      SeekInfo seekInfo = Decoding.seekInfo(payload);
      return authorize(envelope, channelHeader, signatureHeader, seekInfo, rules.get(), now);
    } catch (Decoding.Malformed e) {
      return reject(Verdict.badRequest(String.valueOf(e.getMessage())));
    }
  }

  /** Fabric's validateChannelHeader: timestamp window, then the TLS binding. */
  private Optional<String> headerProblem(
      ChannelHeader header, Optional<ByteString> clientCertificate, Instant now) {
    if (!header.hasTimestamp()) {
      return Optional.of("channel header in envelope must contain timestamp");
    }
    Instant sent =
        Instant.ofEpochSecond(header.getTimestamp().getSeconds(), header.getTimestamp().getNanos());
    if (Duration.between(sent, now).abs().compareTo(timeWindow) > 0) {
      return Optional.of(
          "envelope timestamp "
              + sent
              + " is more than "
              + timeWindow
              + " apart from current server time "
              + now);
    }
    if (!mutualTls) {
      return Optional.empty();
    }
    ByteString claimed = header.getTlsCertHash();
    if (claimed.isEmpty()) {
      return Optional.of("client didn't include its TLS cert hash");
    }
    if (clientCertificate.isEmpty()) {
      return Optional.of("client didn't send a TLS certificate");
    }
    ByteString actual = ByteString.copyFrom(sha256.hash(clientCertificate.get().toByteArray()));
    if (!actual.equals(claimed)) {
      return Optional.of(
          "claimed TLS cert hash is "
              + HexFormat.of().formatHex(claimed.toByteArray())
              + " but actual TLS cert hash is "
              + HexFormat.of().formatHex(actual.toByteArray()));
    }
    return Optional.empty();
  }

  /** Fabric's SessionAccessControl: expiry first, then /Channel/Readers. */
  private DeliverResult authorize(
      Envelope envelope,
      ChannelHeader channelHeader,
      SignatureHeader signatureHeader,
      SeekInfo seekInfo,
      ChannelRules rules,
      Instant now) {
    Optional<Identity> client = CreatorSignature.creator(rules, signatureHeader);
    if (expirationChecks && client.isPresent() && client.get().isExpiredAt(now)) {
      return reject(
          Verdict.forbidden(
              "deliver client identity expired "
                  + Duration.between(client.get().notAfter(), now)
                  + " before"));
    }
    List<Identity> signers =
        CreatorSignature.verifiedSigners(rules, envelope, signatureHeader, client);
    PolicyResult readers = rules.policies().evaluateSigners(rules.readersPolicy(), signers);
    if (!readers.satisfied()) {
      // A follower serves only orderers; to anyone else the channel is not here, as in Fabric.
      return reject(
          rules.follower()
              ? Verdict.notFound("channel " + channelHeader.getChannelId() + " not found")
              : Verdict.forbidden(readers.failure()));
    }
    return new DeliverResult.Accepted(channelHeader, seekInfo, client);
  }

  private static DeliverResult reject(Verdict verdict) {
    return new DeliverResult.Rejected(verdict);
  }
}
