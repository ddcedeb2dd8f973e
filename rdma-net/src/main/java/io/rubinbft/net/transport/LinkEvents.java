package io.rubinbft.net.transport;

/** What a transport reports from {@link Transport#poll}. */
public interface LinkEvents {

  /** A peer connected to {@code listener}; {@code link} is established. */
  void accepted(LinkListener listener, Link link);

  /** An outgoing link from {@link Transport#connect} is established. */
  void established(Link link);

  /** An outgoing link could not be made; {@code reason} says why. */
  void failed(Link link, String reason);

  /** Frames may have arrived: call {@link Link#receive}. */
  void readable(Link link);

  /** Send space returned after {@link Link#flush} could not hand over everything. */
  void writable(Link link);

  /** The link broke (the peer vanished, or the device failed it). */
  void closed(Link link, String reason);
}
