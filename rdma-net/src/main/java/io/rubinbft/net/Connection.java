package io.rubinbft.net;

import static io.rubinbft.net.frame.FrameDescriptor.FLAGS_UNFRAGMENTED;
import static io.rubinbft.net.frame.FrameDescriptor.HEADER_LENGTH;
import static io.rubinbft.net.frame.FrameDescriptor.OVERHEAD;

import io.rubinbft.net.flow.CreditUrgency;
import io.rubinbft.net.flow.FlowControl;
import io.rubinbft.net.flow.FrameKind;
import io.rubinbft.net.fragment.FragmentTracker;
import io.rubinbft.net.fragment.OutboundMessage;
import io.rubinbft.net.fragment.Reassembler;
import io.rubinbft.net.frame.FrameDescriptor;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.frame.FrameType;
import io.rubinbft.net.security.Handshake;
import io.rubinbft.net.security.HandshakeRejected;
import io.rubinbft.net.security.HelloParameters;
import io.rubinbft.net.security.Role;
import io.rubinbft.net.security.Session;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.HeldFrameHandler;
import io.rubinbft.net.transport.Link;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import org.agrona.DirectBuffer;
import org.jspecify.annotations.Nullable;

/**
 * A channel over one transport link: the handshake, framing, encryption, sequence numbers, credit
 * and fragmentation, written once for every transport. Arriving frames are checked in place and
 * either released at once (control frames, dropped frames) or held in their slot until the
 * application polls; sending writes frames in place in the link's send ring.
 */
final class Connection implements Channel, FrameSink, BufferClaim.ClaimOwner {

  /** Receive calls per readable event; the transport reports a link readable again if needed. */
  private static final int RECEIVE_ROUNDS = 8;

  private final Selector selector;
  private final Link link;
  private final Role role;
  private final Handshake handshake;
  private final ChannelConfig config;
  private final SelectionKey key = new SelectionKey(this);
  private final ChannelCounters counters = new ChannelCounters();
  private final FlowControl flow;
  private final FrameFlyweight sendFrame = new FrameFlyweight();
  private final FragmentTracker fragments;
  private final Reassembler reassembler;
  private final OutboundMessage outbound;
  private final HeldFrameHandler deliverer = this::deliver;
  private ChannelState state = ChannelState.CONNECTING;
  private @Nullable String closeReason;
  private @Nullable Session session;
  private boolean authenticated;
  private int sendFrameBytes;
  private int sendMessageBytes;
  private long nextSequence;
  private long expectedSequence;
  private boolean connectReported;
  private boolean closeReported;
  private boolean claimOutstanding;
  private @Nullable MessageHandler pollHandler;
  private int polled;
  private final long handshakeDeadlineNanos;

  Connection(
      Selector selector,
      Link link,
      Role role,
      Handshake handshake,
      ChannelConfig config,
      long handshakeDeadlineNanos) {
    this.selector = selector;
    this.handshakeDeadlineNanos = handshakeDeadlineNanos;
    this.link = link;
    this.role = role;
    this.handshake = handshake;
    this.config = config;
    this.flow = new FlowControl(config.receiveSlots());
    this.fragments = new FragmentTracker(config.maxMessageBytes());
    this.reassembler = new Reassembler(config.maxMessageBytes());
    this.outbound = new OutboundMessage(config.maxMessageBytes());
    link.attach(this);
  }

  // ---- lifecycle, driven by the selector ----

  /** The link is up: send the HELLO at once (the peer posted receives before connecting). */
  void onLinkEstablished() {
    state = ChannelState.HANDSHAKING;
    if (!link.claim(sendFrame)) {
      throw new IllegalStateException("a new link has no send space for the HELLO");
    }
    HelloParameters local =
        new HelloParameters(config.receiveSlots(), config.slotBytes(), config.maxMessageBytes());
    int payload =
        handshake.writeHello(
            sendFrame,
            HEADER_LENGTH,
            FrameDescriptor.maxPayload(link.sizes().handshakeFrameBytes()),
            local);
    int length = payload + OVERHEAD;
    writeHeader(FrameType.HELLO, FLAGS_UNFRAGMENTED, payload, 0, length);
    sendFrame.setMemory(FrameDescriptor.tagOffset(length), FrameDescriptor.TAG_LENGTH, (byte) 0);
    commitFrame(FrameKind.SIGNAL, length, false);
  }

  /** Frames may have arrived: take them, a bounded number of rounds so no peer starves others. */
  void onReadable() {
    try {
      for (int round = 0; round < RECEIVE_ROUNDS && state != ChannelState.CLOSED; round++) {
        if (link.receive(this, config.receiveSlots()) == 0) {
          return;
        }
      }
    } catch (IOException e) {
      fail(String.valueOf(e.getMessage()));
    }
  }

  /** One turn of the selector: send waiting fragments and needed credit, then flush. */
  void dutyCycle() {
    if (state == ChannelState.CLOSED) {
      return;
    }
    if (session != null) {
      sendFragments();
      sendExplicitCredit();
    }
    try {
      link.flush();
    } catch (IOException e) {
      fail("sending failed: " + e.getMessage());
    }
  }

  /** Closes the channel because the link or the peer failed. */
  void fail(String reason) {
    if (state == ChannelState.CLOSED) {
      return;
    }
    state = ChannelState.CLOSED;
    closeReason = reason;
    // A message is lost whether its fragments were delivered into reassembly or still held.
    boolean discarded = reassembler.discardPartial();
    if (discarded || fragments.inProgress()) {
      counters.partialMessagesDiscarded++;
    }
    link.close();
    if (pollHandler == null) {
      freeMessageMemory();
    } // else poll frees it once the handler, which may be reading a reassembled message, returns
    selector.onClosed(this);
  }

  /** Frees the direct memory of reassembly and of a staged message: the channel is closed. */
  private void freeMessageMemory() {
    reassembler.close();
    outbound.close();
  }

  @Override
  public void close() {
    if (state == ChannelState.OPEN && sendControl(FrameType.CLOSE, FrameKind.SIGNAL, false)) {
      try {
        link.flush();
      } catch (IOException e) {
        // Closing anyway: the peer learns from the broken link instead of the CLOSE frame.
      }
    }
    fail("closed by this side");
  }

  // ---- receiving ----

  @Override
  public boolean onFrame(FrameFlyweight frame, int length) {
    Optional<DropReason> invalid = FrameChecks.invalidReason(frame, length, config.slotBytes());
    if (invalid.isPresent()) {
      return drop(invalid.get());
    }
    FrameType type = FrameType.fromCode(frame.typeCode()).orElseThrow();
    if (session == null) {
      return onHandshakeFrame(frame, type, length);
    }
    if (!session.receiveCipher().open(frame, length)) {
      if (state == ChannelState.HANDSHAKING) {
        // An honest peer's first encrypted frame is its AUTH under this exchange's keys: one that
        // is not comes from a replayed or forged handshake.
        drop(DropReason.BAD_MAC);
        selector.onHandshakeRejected();
        fail("handshake rejected: the peer's AUTH is not sealed with this exchange's key");
        return false;
      }
      return drop(DropReason.BAD_MAC);
    }
    long sequence = frame.sequence();
    if (sequence != expectedSequence) {
      return drop(sequence < expectedSequence ? DropReason.REPLAYED : DropReason.OUT_OF_ORDER);
    }
    boolean peerBlocked = (frame.flags() & FrameDescriptor.FLAG_BLOCKED) != 0;
    if (!flow.onArrived(frame.credit(), peerBlocked)) {
      drop(DropReason.WINDOW_OVERRUN);
      fail("peer sent beyond the " + config.receiveSlots() + " slots it was granted");
      return false;
    }
    expectedSequence++;
    counters.framesReceived++;
    counters.bytesReceived += length;
    if (state == ChannelState.HANDSHAKING) {
      return onAuthFrame(frame, type, length);
    }
    return dispatch(frame, type, length);
  }

  private boolean dispatch(FrameFlyweight frame, FrameType type, int length) {
    switch (type) {
      case DATA -> {
        if (fragments.accept(
            frame.flags(), frame.messageLength(), frame.fragmentOffset(), length - OVERHEAD)) {
          return true;
        }
        flow.onReleased(true);
        return drop(DropReason.BAD_FRAGMENT);
      }
      case CREDIT -> flow.onReleased(false);
      case CLOSE -> {
        flow.onReleased(false);
        fail("closed by the peer");
      }
      case HELLO, AUTH -> {
        flow.onReleased(false);
        return drop(DropReason.UNEXPECTED_TYPE);
      }
    }
    return false;
  }

  private boolean onHandshakeFrame(FrameFlyweight frame, FrameType type, int length) {
    if (type != FrameType.HELLO || frame.sequence() != 0) {
      return drop(DropReason.UNEXPECTED_TYPE);
    }
    try {
      Session established = handshake.acceptHello(frame, HEADER_LENGTH, length - OVERHEAD);
      HelloParameters peer = established.peerParameters();
      PeerLimits.check(peer, config);
      session = established;
      sendFrameBytes = Math.min(config.slotBytes(), peer.maxFrameBytes());
      sendMessageBytes = Math.min(config.maxMessageBytes(), Math.max(0, peer.maxMessageBytes()));
    } catch (HandshakeRejected e) {
      drop(DropReason.HANDSHAKE_REJECTED);
      selector.onHandshakeRejected();
      fail("handshake rejected: " + e.getMessage());
      return false;
    }
    expectedSequence = 1;
    flow.onHandshake(session.peerParameters().receiveSlots());
    counters.framesReceived++;
    counters.bytesReceived += length;
    sendAuth();
    return false;
  }

  /**
   * This side's AUTH, the first encrypted frame: its signature over both HELLOs proves to the peer
   * who this side is and that it takes part in this very exchange.
   */
  private void sendAuth() {
    if (!flow.canSend(FrameKind.CREDIT) || !link.claim(sendFrame)) {
      fail("a new link has no send space for the AUTH");
      return;
    }
    int payload =
        handshake.writeAuth(
            sendFrame,
            HEADER_LENGTH,
            FrameDescriptor.maxPayload(link.sizes().handshakeFrameBytes()));
    int length = payload + OVERHEAD;
    writeHeader(FrameType.AUTH, FLAGS_UNFRAGMENTED, payload, 0, length);
    Objects.requireNonNull(session).sendCipher().seal(sendFrame, length);
    commitFrame(FrameKind.CREDIT, length, false);
  }

  /**
   * The peer's first encrypted frame, which must be its AUTH: when its signature over both HELLOs
   * verifies, the peer is authenticated.
   */
  private boolean onAuthFrame(FrameFlyweight frame, FrameType type, int length) {
    flow.onReleased(false);
    if (type != FrameType.AUTH) {
      drop(DropReason.UNEXPECTED_TYPE);
      fail("handshake: the peer's first encrypted frame is " + type + ", not AUTH");
      return false;
    }
    try {
      handshake.acceptAuth(frame, HEADER_LENGTH, length - OVERHEAD);
    } catch (HandshakeRejected e) {
      drop(DropReason.HANDSHAKE_REJECTED);
      selector.onHandshakeRejected();
      fail("handshake rejected: " + e.getMessage());
      return false;
    }
    open();
    return false;
  }

  /**
   * The peer has proven who it is and that it holds the session's keys: only now does the link get
   * its full rings, and the channel open.
   */
  private void open() {
    try {
      link.authenticated();
    } catch (OutOfMemoryError e) {
      // A direct buffer could not be reserved: this link cannot be served, the others can.
      fail("no memory for the link's rings: " + e.getMessage());
      return;
    }
    authenticated = true;
    state = ChannelState.OPEN;
    selector.onOpened(this);
  }

  /** The selector's deadline for this channel to open, in {@link System#nanoTime} terms. */
  long handshakeDeadlineNanos() {
    return handshakeDeadlineNanos;
  }

  private boolean drop(DropReason reason) {
    counters.drop(reason);
    return false;
  }

  @Override
  public void onUnframeable(DropReason reason, String detail) {
    counters.drop(reason);
    fail(detail);
  }

  @Override
  public int poll(MessageHandler handler, int limit) {
    if (pollHandler != null) {
      throw new IllegalStateException("poll called from inside a message handler");
    }
    if (state == ChannelState.CLOSED) {
      return 0; // The rings are released with the link: nothing held survives a close.
    }
    pollHandler = handler;
    polled = 0;
    try {
      while (polled < limit && link.hasHeld()) {
        link.deliverHeld(deliverer, 1);
      }
    } finally {
      pollHandler = null;
      if (state == ChannelState.CLOSED) {
        freeMessageMemory();
      }
    }
    return polled;
  }

  private void deliver(FrameFlyweight frame, int length) {
    flow.onReleased(true);
    int payload = length - OVERHEAD;
    byte flags = frame.flags();
    if ((flags & FLAGS_UNFRAGMENTED) == FLAGS_UNFRAGMENTED) {
      delivered(frame, HEADER_LENGTH, payload);
      return;
    }
    if ((flags & FrameDescriptor.FLAG_BEGIN) != 0 && reassembler.inProgress()) {
      counters.partialMessagesDiscarded++;
    }
    if (reassembler.append(frame, HEADER_LENGTH, payload, flags, frame.messageLength())) {
      delivered(reassembler.message(), 0, reassembler.length());
      reassembler.consumed();
    }
  }

  private void delivered(DirectBuffer buffer, int offset, int length) {
    polled++;
    counters.messagesReceived++;
    Objects.requireNonNull(pollHandler).onMessage(buffer, offset, length);
  }

  // ---- sending ----

  @Override
  public SendResult tryClaim(int length, BufferClaim claim) {
    if (length < 0 || length > maxClaimLength()) {
      throw new IllegalArgumentException(
          "claim of " + length + " bytes; one frame carries at most " + maxClaimLength());
    }
    SendResult ready = readyForData();
    if (ready == SendResult.SENT) {
      claimOutstanding = true;
      claim.wrap(sendFrame, HEADER_LENGTH, length, this);
    }
    return ready;
  }

  @Override
  public void commitClaim(int length) {
    claimOutstanding = false;
    commitData(FLAGS_UNFRAGMENTED, length, 0, length);
    counters.messagesSent++;
  }

  @Override
  public void abortClaim() {
    claimOutstanding = false;
  }

  @Override
  public SendResult offer(DirectBuffer buffer, int offset, int length) {
    if (length < 0 || length > maxMessageLength()) {
      throw new IllegalArgumentException(
          "message of " + length + " bytes; the limit is " + maxMessageLength());
    }
    if (length > maxClaimLength()) {
      return offerFragmented(buffer, offset, length);
    }
    SendResult ready = readyForData();
    if (ready == SendResult.SENT) {
      sendFrame.putBytes(HEADER_LENGTH, buffer, offset, length);
      commitData(FLAGS_UNFRAGMENTED, length, 0, length);
      counters.messagesSent++;
    }
    return ready;
  }

  private SendResult offerFragmented(DirectBuffer buffer, int offset, int length) {
    if (state != ChannelState.OPEN) {
      return SendResult.NOT_OPEN;
    }
    if (outbound.busy() || claimOutstanding) {
      counters.backPressured++;
      return SendResult.BACK_PRESSURED;
    }
    outbound.begin(buffer, offset, length);
    counters.messagesSent++;
    sendFragments();
    // The caller may reuse its buffer once this returns: what the window or the ring did not take
    // now is copied out of it (the rest went straight from it into frames, one copy fewer).
    outbound.stageRemainder();
    return SendResult.SENT;
  }

  /** SENT when one data frame may be written into {@link #sendFrame} now. */
  private SendResult readyForData() {
    if (state != ChannelState.OPEN) {
      return SendResult.NOT_OPEN;
    }
    if (claimOutstanding) {
      throw new IllegalStateException("a claim is outstanding: commit or abort it first");
    }
    if (outbound.busy() || !flow.canSend(FrameKind.DATA) || !link.claim(sendFrame)) {
      flow.onBackPressured();
      counters.backPressured++;
      return SendResult.BACK_PRESSURED;
    }
    return SendResult.SENT;
  }

  private void sendFragments() {
    int maxPayload = FrameDescriptor.maxPayload(sendFrameBytes);
    while (outbound.busy()
        && !claimOutstanding
        && flow.canSend(FrameKind.DATA)
        && link.claim(sendFrame)) {
      int chunk = outbound.nextChunk(maxPayload);
      int fragmentOffset = outbound.sentOffset();
      byte flags = outbound.flags(chunk);
      outbound.copyChunk(sendFrame, HEADER_LENGTH, chunk);
      commitData(flags, outbound.length(), fragmentOffset, chunk);
    }
    if (outbound.busy()) {
      flow.onBackPressured();
    }
  }

  private void sendExplicitCredit() {
    CreditUrgency urgency = flow.urgency();
    if (urgency == CreditUrgency.NONE || claimOutstanding) {
      return;
    }
    boolean announce = urgency == CreditUrgency.BLOCKED;
    if (sendControl(FrameType.CREDIT, urgency.frameKind(), announce)) {
      counters.creditFramesSent++;
    }
  }

  private boolean sendControl(FrameType type, FrameKind kind, boolean announceBlocked) {
    if (!flow.canSend(kind) || !link.claim(sendFrame)) {
      return false;
    }
    byte flags = announceBlocked ? FrameDescriptor.FLAG_BLOCKED : 0;
    writeHeader(type, (byte) (FLAGS_UNFRAGMENTED | flags), 0, 0, OVERHEAD);
    Objects.requireNonNull(session).sendCipher().seal(sendFrame, OVERHEAD);
    commitFrame(kind, OVERHEAD, announceBlocked);
    return true;
  }

  private void commitData(byte flags, int messageLength, int fragmentOffset, int payload) {
    int length = payload + OVERHEAD;
    writeHeader(FrameType.DATA, flags, messageLength, fragmentOffset, length);
    Objects.requireNonNull(session).sendCipher().seal(sendFrame, length);
    commitFrame(FrameKind.DATA, length, false);
  }

  private void writeHeader(
      FrameType type, byte flags, int messageLength, int fragmentOffset, int length) {
    sendFrame.writeHeader(
        length, type, flags, messageLength, fragmentOffset, nextSequence, flow.available());
  }

  private void commitFrame(FrameKind kind, int length, boolean announcesBlocked) {
    flow.onSent(kind, announcesBlocked);
    link.commit(length);
    nextSequence++;
    counters.framesSent++;
    counters.bytesSent += length;
  }

  // ---- readiness and queries ----

  /** Fills {@code ready} with what this channel is ready for now. */
  void readiness(EnumSet<Interest> ready) {
    ready.clear();
    boolean connectPending = role == Role.INITIATOR && !connectReported;
    if (state == ChannelState.CLOSED) {
      if (!closeReported) {
        ready.add(Interest.RECEIVE);
        ready.add(Interest.SEND);
        if (connectPending) {
          ready.add(Interest.CONNECT);
        }
      }
      return;
    }
    if (state != ChannelState.OPEN) {
      return;
    }
    if (connectPending) {
      ready.add(Interest.CONNECT);
    }
    if (link.hasHeld()) {
      ready.add(Interest.RECEIVE);
    }
    if (!outbound.busy() && flow.canSend(FrameKind.DATA) && link.canClaim()) {
      ready.add(Interest.SEND);
    }
  }

  /** The application has seen what {@code reported} says. */
  void reported(EnumSet<Interest> reported) {
    if (reported.contains(Interest.CONNECT)) {
      connectReported = true;
    }
    if (state == ChannelState.CLOSED) {
      closeReported = true;
    }
  }

  /** Whether the selector may forget this channel. */
  boolean finished() {
    return state == ChannelState.CLOSED && (closeReported || key.interests().isEmpty());
  }

  ChannelCounters counters() {
    return counters;
  }

  @Override
  public SelectionKey key() {
    return key;
  }

  @Override
  public ChannelState state() {
    return state;
  }

  @Override
  public Optional<String> closeReason() {
    return Optional.ofNullable(closeReason);
  }

  @Override
  public int maxClaimLength() {
    return FrameDescriptor.maxPayload(session == null ? config.slotBytes() : sendFrameBytes);
  }

  @Override
  public int maxMessageLength() {
    return session == null ? config.maxMessageBytes() : sendMessageBytes;
  }

  @Override
  public Optional<X509Certificate> peerCertificate() {
    return authenticated
        ? Optional.of(Objects.requireNonNull(session).peerCertificate())
        : Optional.empty();
  }

  @Override
  public InetSocketAddress remoteAddress() {
    return link.remoteAddress();
  }

  @Override
  public ChannelStats stats() {
    return new ChannelStats(
        link.remoteAddress(),
        session == null ? "" : session.peerCertificate().getSubjectX500Principal().getName(),
        state,
        counters.messagesSent,
        counters.messagesReceived,
        counters.framesSent,
        counters.bytesSent,
        counters.framesReceived,
        counters.bytesReceived,
        counters.creditFramesSent,
        counters.backPressured,
        flow.sendWindow().sent(),
        flow.sendWindow().peerAvailable(),
        flow.receiveWindow().received(),
        flow.available(),
        counters.partialMessagesDiscarded,
        counters.droppedMap());
  }
}
