package io.rubinbft.net;

import static io.rubinbft.net.frame.FrameDescriptor.FLAGS_UNFRAGMENTED;
import static io.rubinbft.net.frame.FrameDescriptor.HEADER_LENGTH;
import static io.rubinbft.net.frame.FrameDescriptor.OVERHEAD;

import io.rubinbft.net.frame.FrameDescriptor;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.frame.FrameType;
import io.rubinbft.net.security.Handshake;
import io.rubinbft.net.security.HandshakeRejected;
import io.rubinbft.net.security.HelloParameters;
import io.rubinbft.net.security.Role;
import io.rubinbft.net.security.Session;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A consenter that holds real keys and writes its own frames: the handshake done by the book with
 * {@link Handshake} on a raw {@link Link} of a transport, then whatever frames the test hands it,
 * sealed with the session's key or not. It is the Byzantine peer of the fuzz and adversary tests:
 * it can put any header and payload on the wire with a tag that verifies. Frames from the other
 * side are opened, counted and released at once; it never holds any.
 */
final class RawPeer implements LinkEvents, FrameSink, AutoCloseable {

  private final Transport transport;
  private final Link link;
  private final Handshake handshake;
  private final HelloParameters parameters;
  private final FrameFlyweight sendFrame = new FrameFlyweight();
  private @Nullable Session session;
  private boolean authenticated;
  private boolean broken;
  private long nextSequence;
  private long received;

  private RawPeer(Transport transport, Link link, Handshake handshake, LinkSizes sizes) {
    this.transport = transport;
    this.link = link;
    this.handshake = handshake;
    this.parameters =
        new HelloParameters(sizes.receiveSlots(), sizes.maxFrameBytes(), Integer.MAX_VALUE);
    link.attach(this);
  }

  /** Starts connecting as {@code self} to {@code address}, expecting {@code server} there. */
  static RawPeer connect(
      Transport transport, InetSocketAddress address, Identity self, Identity server, int slots)
      throws IOException {
    LinkSizes sizes = new LinkSizes(slots, slots, LinkSizes.HANDSHAKE_FRAME_BYTES);
    Handshake handshake =
        new Handshake(
            self,
            Role.INITIATOR,
            PeerAuthenticator.pinned(List.of(server.certificate())),
            new SecureRandom(),
            transport.family());
    return new RawPeer(transport, transport.connect(address, sizes), handshake, sizes);
  }

  /** One poll of the transport without waiting: handshake steps, arrivals, send completions. */
  void poll() {
    try {
      transport.poll(this, 0);
      if (!broken) {
        link.flush();
      }
    } catch (IOException e) {
      broken = true;
    }
  }

  boolean authenticated() {
    return authenticated;
  }

  /** Whether the link failed or the other side closed it. */
  boolean broken() {
    return broken;
  }

  /** The sequence number the other side expects next. */
  long nextSequence() {
    return nextSequence;
  }

  /**
   * The credit position to advertise: this side's slots plus every frame it released (all of them,
   * the HELLO included).
   */
  long credit() {
    return parameters.receiveSlots() + received;
  }

  /**
   * Puts {@code frame} on the wire as {@code length} bytes (at most a slot); sealed, the header's
   * sequence number is the nonce and the tag is written over the last 16 bytes. Returns false when
   * the send ring is full or the link broke.
   */
  boolean send(byte[] frame, int length, boolean seal) {
    if (broken || !link.claim(sendFrame)) {
      return false;
    }
    sendFrame.putBytes(0, frame, 0, length);
    if (seal) {
      Objects.requireNonNull(session).sendCipher().seal(sendFrame, length);
    }
    link.commit(length);
    nextSequence++;
    return true;
  }

  @Override
  public void close() {
    link.close();
  }

  // ---- the transport's events ----

  @Override
  public void accepted(LinkListener listener, Link accepted) {
    accepted.close();
  }

  @Override
  public void established(Link established) {
    link.claim(sendFrame);
    int payload =
        handshake.writeHello(
            sendFrame, HEADER_LENGTH, FrameDescriptor.maxPayload(sendFrame.capacity()), parameters);
    int length = payload + OVERHEAD;
    sendFrame.writeHeader(length, FrameType.HELLO, FLAGS_UNFRAGMENTED, payload, 0, 0, 0);
    link.commit(length);
    nextSequence = 1;
  }

  @Override
  public void failed(Link failed, String reason) {
    broken = true;
  }

  @Override
  public void readable(Link readable) {
    try {
      while (!broken && link.receive(this, parameters.receiveSlots()) > 0) {
        // Everything is released on arrival: keep taking until nothing is left.
      }
    } catch (IOException e) {
      broken = true;
    }
  }

  @Override
  public void writable(Link writable) {}

  @Override
  public void closed(Link closed, String reason) {
    broken = true;
  }

  @Override
  public boolean onFrame(FrameFlyweight frame, int length) {
    received++;
    try {
      if (session == null) {
        session = handshake.acceptHello(frame, HEADER_LENGTH, length - OVERHEAD);
        sendAuth();
      } else if (session.receiveCipher().open(frame, length)
          && !authenticated
          && frame.typeCode() == FrameType.AUTH.code()) {
        handshake.acceptAuth(frame, HEADER_LENGTH, length - OVERHEAD);
        authenticated = true;
      }
    } catch (HandshakeRejected e) {
      throw new IllegalStateException("the node under test refused to authenticate", e);
    }
    return false;
  }

  private void sendAuth() {
    if (!link.claim(sendFrame)) {
      throw new IllegalStateException("no send space for the AUTH");
    }
    int payload =
        handshake.writeAuth(
            sendFrame, HEADER_LENGTH, FrameDescriptor.maxPayload(sendFrame.capacity()));
    int length = payload + OVERHEAD;
    sendFrame.writeHeader(
        length, FrameType.AUTH, FLAGS_UNFRAGMENTED, payload, 0, nextSequence, credit());
    Objects.requireNonNull(session).sendCipher().seal(sendFrame, length);
    link.commit(length);
    nextSequence++;
    link.authenticated();
  }

  @Override
  public void onUnframeable(DropReason reason, String detail) {
    throw new UncheckedIOException(new IOException("the node under test sent garbage: " + detail));
  }
}
