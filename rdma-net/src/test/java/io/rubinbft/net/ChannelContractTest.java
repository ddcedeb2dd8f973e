package io.rubinbft.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.TamperingTransport.Injection;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every transport must show under the selector. Each provider runs it through a
 * subclass that says how to make its transport; both selectors are driven from the test thread.
 */
public abstract class ChannelContractTest {

  static final int SLOT_BYTES = 16 * 1024;
  static final int SLOTS = 8;
  static final int MAX_MESSAGE = 16 * 1024 * 1024;

  static Identity serverIdentity;
  static Identity clientIdentity;
  static Identity strangerIdentity;

  protected TamperingTransport serverTransport;
  protected TamperingTransport clientTransport;
  protected Selector server;
  protected Selector client;
  protected ServerChannel listener;
  protected final ArrayDeque<Channel> accepted = new ArrayDeque<>();
  protected Pump pump;

  /** A new, unshared transport of the provider under test. */
  protected abstract Transport newTransport() throws IOException;

  @BeforeAll
  static void identities() {
    serverIdentity = TestIdentities.create("replica-0");
    clientIdentity = TestIdentities.create("replica-1");
    strangerIdentity = TestIdentities.create("stranger");
  }

  @BeforeEach
  void selectors() throws IOException {
    serverTransport = new TamperingTransport(newTransport());
    clientTransport = new TamperingTransport(newTransport());
    server = Selector.open(serverTransport, config(serverIdentity));
    client = Selector.open(clientTransport, config(clientIdentity));
    listener = server.listen(loopback(), expecting(clientIdentity));
    listener.key().addInterest(Interest.ACCEPT);
    pump = new Pump(this::onReady, server, client);
  }

  @AfterEach
  void close() {
    client.close();
    server.close();
  }

  static ChannelConfig config(Identity identity) {
    return new ChannelConfig(identity, SLOTS, SLOTS, SLOT_BYTES, MAX_MESSAGE, 16);
  }

  static InetSocketAddress loopback() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  static PeerAuthenticator expecting(Identity identity) {
    return PeerAuthenticator.pinned(List.of(identity.certificate()));
  }

  private void onReady(SelectionKey key) {
    if (key.isReady(Interest.ACCEPT)) {
      key.serverChannel().accept().ifPresent(accepted::add);
    }
  }

  /** Connects the client selector to the server; returns {client side, server side}. */
  protected Channel[] connectPair() throws IOException {
    int before = accepted.size();
    Channel channel = client.connect(listener.localAddress(), expecting(serverIdentity));
    channel.key().addInterest(Interest.CONNECT);
    pump.until("channel open on both sides", () -> accepted.size() > before);
    pump.until("client open", () -> channel.state() == ChannelState.OPEN);
    return new Channel[] {channel, accepted.peekLast()};
  }

  /** Offers, turning the selectors and draining {@code receiver} while back-pressured. */
  protected void send(Channel channel, UnsafeBuffer message, Channel receiver, Received into) {
    pump.until(
        "message accepted",
        () -> {
          if (channel.offer(message, 0, message.capacity()) == SendResult.SENT) {
            return true;
          }
          receiver.poll(into, Integer.MAX_VALUE);
          return false;
        });
  }

  /** Polls {@code channel} until {@code count} messages in all have arrived in {@code into}. */
  protected void receive(Channel channel, Received into, int count) {
    pump.until(
        count + " messages received",
        () -> {
          channel.poll(into, Integer.MAX_VALUE);
          return into.count() >= count;
        });
  }

  @Test
  void opensChannelsAuthenticatedBothWays() throws IOException {
    Channel[] pair = connectPair();

    assertThat(pair[0].peerCertificate()).contains(serverIdentity.certificate());
    assertThat(pair[1].peerCertificate()).contains(clientIdentity.certificate());
    assertThat(pair[1].state()).isEqualTo(ChannelState.OPEN);
    assertThat(server.stats().accepted()).isEqualTo(1);
  }

  /**
   * Attack: read cluster traffic on the path (a tap on the network, or another process reading the
   * shm rings). A message's bytes never appear on the wire: what the client side's link carried is
   * ciphertext, and the server still receives the plaintext.
   */
  @Test
  void aMessageCrossesTheWireEncrypted() throws IOException {
    Channel[] pair = connectPair();
    byte[] marker = "an order to read: 0123456789".repeat(8).getBytes(StandardCharsets.US_ASCII);
    Received received = new Received();

    send(pair[0], new UnsafeBuffer(marker), pair[1], received);
    receive(pair[1], received, 1);

    assertThat(received.messages.getFirst()).isEqualTo(marker);
    List<byte[]> wire = clientTransport.firstFramesOf(0);
    assertThat(wire).as("HELLO, AUTH and the message's frame").hasSizeGreaterThanOrEqualTo(3);
    String probe = new String(marker, 0, 16, StandardCharsets.ISO_8859_1);
    for (byte[] frame : wire) {
      assertThat(new String(frame, StandardCharsets.ISO_8859_1)).doesNotContain(probe);
    }
  }

  @Test
  void deliversEveryMessageInOrderFromOneByteTo16MiB() throws IOException {
    Channel[] pair = connectPair();
    int frame = pair[0].maxClaimLength();
    int[] sizes = {1, 2, 100, frame - 1, frame, frame + 1, 3 * frame + 7, 1 << 20, MAX_MESSAGE};
    Received received = new Received();

    for (int i = 0; i < sizes.length; i++) {
      send(pair[0], Messages.message(1, i, sizes[i]), pair[1], received);
    }
    receive(pair[1], received, sizes.length);

    for (int i = 0; i < sizes.length; i++) {
      assertThat(received.messages.get(i)).isEqualTo(Messages.bytes(1, i, sizes[i]));
    }
    assertThat(pair[1].stats().messagesReceived()).isEqualTo(sizes.length);
  }

  @Test
  void aFragmentedMessageArrivesIntactWhenTheCallerReusesItsBufferAtOnce() throws IOException {
    Channel[] pair = connectPair();
    // Larger than the window: the first fragments go straight from the caller's buffer, the rest
    // must have been copied out of it by the time offer returns.
    int[] sizes = {SLOTS * SLOT_BYTES * 3 + 5, pair[0].maxClaimLength() + 1};
    Received received = new Received();

    for (int i = 0; i < sizes.length; i++) {
      UnsafeBuffer message = Messages.message(5, i, sizes[i]);
      send(pair[0], message, pair[1], received);
      message.setMemory(0, message.capacity(), (byte) 0x5A);
    }
    receive(pair[1], received, sizes.length);

    for (int i = 0; i < sizes.length; i++) {
      assertThat(received.messages.get(i)).isEqualTo(Messages.bytes(5, i, sizes[i]));
    }
  }

  @Test
  void carriesMessagesBothWaysAtOnce() throws IOException {
    Channel[] pair = connectPair();
    Received atServer = new Received();
    Received atClient = new Received();

    for (int i = 0; i < 200; i++) {
      send(pair[0], Messages.message(2, i, 10 + i * 97), pair[1], atServer);
      send(pair[1], Messages.message(3, i, 5000 + i * 211), pair[0], atClient);
    }
    receive(pair[1], atServer, 200);
    receive(pair[0], atClient, 200);

    for (int i = 0; i < 200; i++) {
      assertThat(atServer.messages.get(i)).isEqualTo(Messages.bytes(2, i, 10 + i * 97));
      assertThat(atClient.messages.get(i)).isEqualTo(Messages.bytes(3, i, 5000 + i * 211));
    }
  }

  @Test
  void aSelectWithNoTimeoutReturnsWhenAMessageArrives() throws Exception {
    Channel[] pair = connectPair();
    pair[1].key().addInterest(Interest.RECEIVE);
    UnsafeBuffer message = Messages.message(4, 0, 3000);
    assertThat(pair[0].offer(message, 0, message.capacity())).isEqualTo(SendResult.SENT);
    client.flush();

    // The server selects on another thread only so that a select that never returns fails the test
    // instead of hanging it; this thread touches no selector until that thread is done.
    CompletableFuture<Integer> selects = new CompletableFuture<>();
    Thread.ofPlatform().start(() -> selectUntilReceiveReady(pair[1], selects));

    assertThat(selects.get(1, TimeUnit.MINUTES)).isPositive();
    Received received = new Received();
    assertThat(pair[1].poll(received, 1)).isEqualTo(1);
    assertThat(received.messages.getFirst()).isEqualTo(Messages.bytes(4, 0, 3000));
  }

  /**
   * Selects with no timeout until {@code channel} is ready to receive; completes with the count.
   */
  private void selectUntilReceiveReady(Channel channel, CompletableFuture<Integer> selects) {
    boolean[] ready = new boolean[1];
    KeyHandler onReady =
        key -> ready[0] |= key.selectable() == channel && key.isReady(Interest.RECEIVE);
    try {
      int count = 0;
      while (!ready[0]) {
        server.select(onReady);
        count++;
      }
      selects.complete(count);
    } catch (IOException | RuntimeException e) {
      selects.completeExceptionally(e);
    }
  }

  @Test
  void countersOfBothEndsAgree() throws IOException {
    Channel[] pair = connectPair();
    Received received = new Received();
    for (int i = 0; i < 50; i++) {
      send(pair[0], Messages.message(13, i, 1 + i * 1500), pair[1], received);
    }
    receive(pair[1], received, 50);
    pump.turns(50);

    ChannelStats sent = pair[0].stats();
    ChannelStats arrived = pair[1].stats();
    assertThat(arrived.messagesReceived()).isEqualTo(sent.messagesSent()).isEqualTo(50);
    assertThat(arrived.framesReceived()).isEqualTo(sent.framesSent());
    assertThat(arrived.bytesReceived()).isEqualTo(sent.bytesSent());
    assertThat(arrived.receivedPosition()).isEqualTo(sent.sendPosition());
    assertThat(sent.peerAvailable()).isLessThanOrEqualTo(arrived.advertisedAvailable());
    assertThat(arrived.peer()).contains("replica-1");
  }

  @Test
  void claimWritesInPlaceAndAbortSendsNothing() throws IOException {
    Channel[] pair = connectPair();
    BufferClaim claim = new BufferClaim();
    Received received = new Received();

    assertThat(pair[0].tryClaim(4, claim)).isEqualTo(SendResult.SENT);
    claim.buffer().putInt(claim.offset(), 111);
    claim.abort();
    assertThat(pair[0].tryClaim(4, claim)).isEqualTo(SendResult.SENT);
    claim.buffer().putInt(claim.offset(), 222);
    claim.commit();
    receive(pair[1], received, 1);
    pump.turns(20);
    pair[1].poll(received, 10);

    assertThat(received.messages).hasSize(1);
    assertThat(new UnsafeBuffer(received.messages.get(0)).getInt(0)).isEqualTo(222);
    assertThatThrownBy(() -> pair[0].tryClaim(pair[0].maxClaimLength() + 1, claim))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void servesManyChannelsOnOneSelector() throws IOException {
    int channels = 6;
    List<Channel[]> pairs = new ArrayList<>();
    for (int c = 0; c < channels; c++) {
      pairs.add(connectPair());
    }
    List<Received> received = new ArrayList<>();
    for (int c = 0; c < channels; c++) {
      received.add(new Received());
    }
    for (int i = 0; i < 40; i++) {
      for (int c = 0; c < channels; c++) {
        Channel[] pair = pairs.get(c);
        int size = 1 + (i * 523 + c * 7919) % 40_000;
        send(pair[0], Messages.message(100 + c, i, size), pair[1], received.get(c));
      }
    }

    for (int c = 0; c < channels; c++) {
      receive(pairs.get(c)[1], received.get(c), 40);
      for (int i = 0; i < 40; i++) {
        int size = 1 + (i * 523 + c * 7919) % 40_000;
        assertThat(received.get(c).messages.get(i)).isEqualTo(Messages.bytes(100 + c, i, size));
      }
    }
    assertThat(server.stats().channels()).hasSize(channels);
  }

  @Test
  void backPressuresAStalledReceiverAndResumesWithoutLossOrDuplicates() throws IOException {
    Channel[] pair = connectPair();
    BackPressureScenario scenario = new BackPressureScenario(pump, pair[0], pair[1], SLOTS, 7);

    for (int cycle = 0; cycle < 12; cycle++) {
      scenario.cycle(40);
    }

    assertThat(scenario.stallsWithoutBackPressure()).isZero();
    assertThat(scenario.delivered()).isPositive();
    assertThat(pair[0].stats().sendPosition()).isLessThanOrEqualTo(pair[0].stats().peerAvailable());
    assertThat(pair[1].stats().dropped()).isEmpty();
  }

  /**
   * The long mode of the back-pressure test: ten minutes of floods into a receiver that stalls for
   * two seconds at a time ({@code ./test.sh -Plong}).
   */
  @Test
  @Tag("long")
  void soaksBackPressureForTenMinutes() throws IOException {
    Channel[] pair = connectPair();
    BackPressureScenario scenario = new BackPressureScenario(pump, pair[0], pair[1], SLOTS, 11);
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    int cycles = 0;
    while (System.nanoTime() < end) {
      long stallEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      scenario.stallUntil(stallEnd);
      cycles++;
    }

    assertThat(scenario.stallsWithoutBackPressure()).isZero();
    assertThat(scenario.delivered()).isPositive();
    assertThat(cycles).isPositive();
    assertThat(pair[1].stats().dropped()).isEmpty();
  }

  @Test
  void sendReadinessReturnsOnlyWithCredit() throws IOException {
    Channel[] pair = connectPair();
    SelectionKey key = pair[0].key().addInterest(Interest.SEND);
    List<Boolean> sendReady = new ArrayList<>();
    Pump watching =
        new Pump(
            ready -> {
              if (ready == key) {
                sendReady.add(ready.isReady(Interest.SEND));
              }
            },
            server,
            client);
    UnsafeBuffer message = Messages.message(12, 0, 100);
    // Twice: the first BLOCKED announcement may reveal credit from control frames the peer had
    // released but not yet advertised; after the second flood the window is truly full.
    for (int flood = 0; flood < 2; flood++) {
      while (pair[0].offer(message, 0, 100) == SendResult.SENT) {
        watching.turn();
      }
      watching.turns(50);
    }
    while (pair[0].offer(message, 0, 100) == SendResult.SENT) {
      watching.turn();
    }
    sendReady.clear();
    watching.turns(50);

    assertThat(sendReady)
        .as("never SEND-ready while the stalled peer holds the window: %s", pair[0].stats())
        .isEmpty();
    watching.until(
        "SEND readiness after the peer consumed",
        () -> {
          pair[1].poll(new Received(), Integer.MAX_VALUE);
          return sendReady.contains(true);
        });
  }

  @Test
  void refusesAPeerTheAuthenticatorRejects() throws IOException {
    Selector stranger = Selector.open(newTransport(), config(strangerIdentity));
    try {
      Channel channel = stranger.connect(listener.localAddress(), expecting(serverIdentity));
      Pump withStranger = new Pump(key -> {}, server, stranger);
      withStranger.until("stranger refused", () -> channel.state() == ChannelState.CLOSED);
      withStranger.until("server counted it", () -> server.stats().handshakesRejected() == 1);

      assertThat(accepted).isEmpty();
      assertThat(server.stats().dropped(DropReason.HANDSHAKE_REJECTED)).isEqualTo(1);
    } finally {
      stranger.close();
    }
  }

  @Test
  void closeReachesThePeerAndReconnectingWorks() throws IOException {
    Channel[] first = connectPair();
    first[0].close();
    pump.until("server sees the close", () -> first[1].state() == ChannelState.CLOSED);

    assertThat(first[1].closeReason()).contains("closed by the peer");
    Channel[] second = connectPair();
    Received received = new Received();
    send(second[0], Messages.message(5, 0, 1234), second[1], received);
    receive(second[1], received, 1);
    assertThat(client.stats().reconnects()).isEqualTo(1);
    assertThat(first[0].offer(Messages.message(5, 1, 10), 0, 10)).isEqualTo(SendResult.NOT_OPEN);
  }

  @Test
  void aPeerCrashingMidMessageLeavesNoPartialMessage() throws IOException {
    Channel[] pair = connectPair();
    Received received = new Received();
    UnsafeBuffer large = Messages.message(6, 0, 1 << 20);
    assertThat(pair[0].offer(large, 0, large.capacity())).isEqualTo(SendResult.SENT);
    pump.turns(5);

    clientTransport.close();
    new Pump(key -> {}, server)
        .until(
            "server sees the crash",
            () -> {
              pair[1].poll(received, 100);
              return pair[1].state() == ChannelState.CLOSED;
            });

    assertThat(received.messages).isEmpty();
    assertThat(pair[1].stats().partialMessagesDiscarded()).isEqualTo(1);
  }

  @Test
  void dropsAndCountsInjectedFramesAndKeepsGoing() throws IOException {
    Channel[] pair = connectPair();
    Received received = new Received();
    Injection[] injections = {Injection.BAD_MAC, Injection.REPLAY, Injection.GARBAGE};

    for (int i = 0; i < injections.length; i++) {
      clientTransport.injectAfterNextFrame(injections[i]);
      send(pair[0], Messages.message(7, i, 300), pair[1], received);
    }
    send(pair[0], Messages.message(7, injections.length, 300), pair[1], received);
    receive(pair[1], received, injections.length + 1);

    ChannelStats stats = pair[1].stats();
    assertThat(stats.dropped(DropReason.BAD_MAC)).isEqualTo(1);
    assertThat(stats.dropped(DropReason.REPLAYED)).isEqualTo(1);
    assertThat(stats.dropped(DropReason.MALFORMED)).isEqualTo(1);
    assertThat(received.messages).hasSize(injections.length + 1);
    assertThat(pair[1].state()).isEqualTo(ChannelState.OPEN);
  }

  @Test
  void aFrameWithAnImpossibleLengthDisturbsNoOtherChannel() throws IOException {
    Channel[] bad = connectPair();
    clientTransport.injectAfterNextFrame(Injection.OVERSIZED_LENGTH);
    Channel[] good = connectPair();
    Received received = new Received();
    send(bad[0], Messages.message(8, 0, 50), bad[1], received);
    pump.until(
        "the bad frame is counted",
        () ->
            server.stats().dropped(DropReason.OVERSIZED)
                    + server.stats().dropped(DropReason.TRUNCATED)
                == 1);

    Received atGood = new Received();
    send(good[0], Messages.message(9, 0, 50), good[1], atGood);
    receive(good[1], atGood, 1);
    assertThat(good[1].state()).isEqualTo(ChannelState.OPEN);
    // A stream transport loses the frame boundaries and closes that one channel; a message
    // transport (verbs) has them from the completion and keeps it open.
    assertThat(bad[1].state()).isIn(ChannelState.OPEN, ChannelState.CLOSED);
  }

  @Test
  void reportsConnectFailureThroughTheKey() throws IOException {
    InetSocketAddress nobody = listener.localAddress();
    listener.close();
    pump.turns(2);
    Channel channel = client.connect(nobody, expecting(serverIdentity));
    channel.key().addInterest(Interest.CONNECT);
    List<Optional<String>> seen = new ArrayList<>();
    Pump watching = new Pump(key -> seen.add(key.channel().closeReason()), client);

    watching.until("connect failure reported", () -> !seen.isEmpty());

    assertThat(channel.state()).isEqualTo(ChannelState.CLOSED);
    assertThat(seen.get(0)).hasValueSatisfying(r -> assertThat(r).startsWith("connect failed"));
  }
}
