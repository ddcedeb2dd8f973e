package io.rubinbft.net;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.Optional;
import org.agrona.DirectBuffer;

/**
 * A connection to one peer carrying whole messages, in order, authenticated and encrypted. All
 * calls come from the selector's thread. Sending never blocks and never throws for a full window:
 * it returns {@link SendResult#BACK_PRESSURED}, and the key becomes ready for SEND when credit
 * returns.
 */
public non-sealed interface Channel extends Selectable {

  ChannelState state();

  /** Why the channel closed, once it has. */
  Optional<String> closeReason();

  /**
   * Claims {@code length} bytes in the send ring for a message written in place; on {@link
   * SendResult#SENT}, write into {@code claim} and then {@link BufferClaim#commit()} or {@link
   * BufferClaim#abort()} before any other call on this channel.
   *
   * @throws IllegalArgumentException if {@code length} exceeds {@link #maxClaimLength()}
   */
  SendResult tryClaim(int length, BufferClaim claim);

  /**
   * Sends a copy of {@code length} bytes at {@code offset}; messages larger than a frame are
   * fragmented (the whole message is copied into the channel's staging buffer at once).
   *
   * @throws IllegalArgumentException if {@code length} exceeds {@link #maxMessageLength()}
   */
  SendResult offer(DirectBuffer buffer, int offset, int length);

  /**
   * Hands up to {@code limit} received messages to {@code handler}; returns how many. A closed
   * channel delivers nothing more: messages not polled before the close are gone with its rings.
   */
  int poll(MessageHandler handler, int limit);

  /** The largest message {@link #tryClaim} takes: one frame's payload. */
  int maxClaimLength();

  /** The largest message {@link #offer} takes, as agreed with the peer. */
  int maxMessageLength();

  /** The certificate the peer authenticated with, once open. */
  Optional<X509Certificate> peerCertificate();

  InetSocketAddress remoteAddress();

  /** This channel's counters, as plain data. */
  ChannelStats stats();
}
