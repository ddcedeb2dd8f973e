package io.rubinbft.orderer.deliver;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.metrics.DeliverMetrics;
import io.rubinbft.orderer.msp.Identity;
import io.rubinbft.orderer.service.Channels;
import io.rubinbft.orderer.service.ServedChannel;
import io.rubinbft.orderer.validation.DeliverResult;
import io.rubinbft.orderer.validation.DeliverValidator;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one DELIVER_SEEK_INFO envelope: validation (DeliverValidator), the range against the
 * ledger height (SeekRange), then the blocks (BlockStreamer). Thread-safe.
 */
public final class SeekHandler {

  private static final Logger LOG = LoggerFactory.getLogger(SeekHandler.class);

  private final Channels channels;
  private final DeliverValidator validator;
  private final Clock clock;
  private final DeliverMetrics metrics;
  private final DeliverBytes deliverBytes;

  /**
   * With this JVM's budget of Deliver bytes in flight ({@link DeliverBytes#forThisJvm}).
   *
   * @param validator built over the same {@code channels}' rules
   * @param clock the time reader certificates must not have expired at
   */
  public SeekHandler(
      Channels channels, DeliverValidator validator, Clock clock, DeliverMetrics metrics) {
    this(channels, validator, clock, metrics, DeliverBytes.forThisJvm());
  }

  /**
   * @param deliverBytes the direct memory the blocks being sent to all readers may hold
   */
  public SeekHandler(
      Channels channels,
      DeliverValidator validator,
      Clock clock,
      DeliverMetrics metrics,
      DeliverBytes deliverBytes) {
    this.channels = channels;
    this.validator = validator;
    this.clock = clock;
    this.metrics = metrics;
    this.deliverBytes = deliverBytes;
  }

  /** The budget the sessions served by this handler hold their blocks in. */
  DeliverBytes deliverBytes() {
    return deliverBytes;
  }

  /**
   * Sends the requested blocks into the sink for the request's reader and returns the final status,
   * which the caller sends.
   *
   * @param clientCertificate the DER of the connection's TLS client certificate, if any
   * @param sinkFor the sink for a reader, given the DER of the certificate that signed the request
   *     (who the node's {@link DeliverBytes} takes turns between)
   * @throws InterruptedException when the call is cancelled
   */
  public Status serve(
      Envelope envelope,
      Optional<ByteString> clientCertificate,
      Function<ByteString, ResponseSink> sinkFor)
      throws InterruptedException {
    DeliverResult result = validator.validate(envelope, clientCertificate);
    if (!(result instanceof DeliverResult.Accepted accepted)) {
      LOG.debug("Deliver request rejected: {}", result.verdict());
      return result.verdict().status();
    }
    String channelId = accepted.channelHeader().getChannelId();
    Optional<ServedChannel> channel = channels.channel(channelId);
    if (channel.isEmpty()) {
      return Status.NOT_FOUND;
    }
    metrics.requestReceived(channelId);
    ResponseSink sink =
        sinkFor.apply(accepted.client().map(Identity::certificateDer).orElse(ByteString.EMPTY));
    Status status =
        serve(
            channelId,
            channel.get(),
            accepted,
            envelope,
            response -> {
              sink.send(response);
              metrics.blockSent(channelId);
            });
    metrics.requestCompleted(channelId, status == Status.SUCCESS);
    return status;
  }

  private Status serve(
      String channelId,
      ServedChannel channel,
      DeliverResult.Accepted accepted,
      Envelope envelope,
      ResponseSink sink)
      throws InterruptedException {
    ChannelLedger ledger = channel.ledger();
    long height = ledger.height();
    if (height == 0) {
      // Joined but the genesis block is not written yet: nothing can be resolved against it.
      return Status.SERVICE_UNAVAILABLE;
    }
    SeekResolution resolved = SeekRange.resolve(accepted.seekInfo(), height);
    if (!(resolved instanceof SeekResolution.Blocks(SeekRange range))) {
      Status refused = ((SeekResolution.Refused) resolved).status();
      LOG.debug("Deliver request on '{}' answered {} before any block", channelId, refused);
      return refused;
    }
    BlockStreamer streamer =
        new BlockStreamer(
            channelId,
            channel,
            channels,
            clock,
            range,
            accepted.seekInfo().getContentType(),
            ReaderAccess.of(
                envelope, validator.expirationChecks() ? accepted.client() : Optional.empty()));
    return streamer.stream(sink);
  }
}
