package io.rubinbft.net;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * One channel's counters at one moment, as plain data.
 *
 * @param remoteAddress the peer's address
 * @param peer the peer certificate's subject, once authenticated
 * @param state the channel's state
 * @param messagesSent messages accepted by offer or committed claims
 * @param messagesReceived whole messages handed to the application
 * @param framesSent frames of every type put on the wire
 * @param bytesSent bytes of those frames
 * @param framesReceived valid frames received
 * @param bytesReceived bytes of those frames
 * @param creditFramesSent explicit credit and acknowledgement frames sent
 * @param backPressured times a send returned BACK_PRESSURED
 * @param sendPosition frames sent, as a position
 * @param peerAvailable receive slots the peer has made available, as a position
 * @param receivedPosition valid frames received, as a position
 * @param advertisedAvailable receive slots this side has made available, as a position
 * @param partialMessagesDiscarded fragmented messages abandoned by a peer that failed mid-way
 * @param dropped frames dropped, by reason
 */
public record ChannelStats(
    InetSocketAddress remoteAddress,
    String peer,
    ChannelState state,
    long messagesSent,
    long messagesReceived,
    long framesSent,
    long bytesSent,
    long framesReceived,
    long bytesReceived,
    long creditFramesSent,
    long backPressured,
    long sendPosition,
    long peerAvailable,
    long receivedPosition,
    long advertisedAvailable,
    long partialMessagesDiscarded,
    Map<DropReason, Long> dropped) {

  /** Frames dropped for {@code reason}. */
  public long dropped(DropReason reason) {
    return dropped.getOrDefault(reason, 0L);
  }
}
