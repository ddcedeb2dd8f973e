package io.rubinbft.orderer.configtx;

import com.google.protobuf.Timestamp;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import java.time.Clock;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;

/**
 * Wraps a new config into the CONFIG envelope this orderer signs, laid out as Fabric's
 * CreateSignedEnvelope makes it (block 6 of the fixtures): channel header {type CONFIG, version 0,
 * timestamp in whole seconds, channel id, epoch 0, no tx id}, signature header {this orderer's
 * identity, 24-byte nonce}, data = the ConfigEnvelope, signed over the payload bytes.
 */
public final class ConfigEnvelopeSigner {

  private final EnvelopeFactory envelopes;
  private final Clock clock;

  public ConfigEnvelopeSigner(SigningIdentity identity, Clock clock) {
    this.envelopes = new EnvelopeFactory(identity, clock);
    this.clock = clock;
  }

  public Envelope sign(String channelId, ConfigEnvelope configEnvelope) {
    ChannelHeader channelHeader =
        ChannelHeader.newBuilder()
            .setType(HeaderType.CONFIG_VALUE)
            .setChannelId(channelId)
            .setTimestamp(Timestamp.newBuilder().setSeconds(clock.instant().getEpochSecond()))
            .build();
    return envelopes.sign(channelHeader, configEnvelope.toByteString());
  }
}
