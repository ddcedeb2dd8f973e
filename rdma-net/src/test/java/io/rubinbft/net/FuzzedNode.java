package io.rubinbft.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * The node side of the fuzz tests that play a byzantine peer against a real {@link Selector}: a
 * listener that admits the byzantine peer and an honest bystander, the bystander's channel (on a
 * selector of its own), and the checks every input ends with: nothing delivered above the node's
 * message limit, the byzantine channel closed once its peer is gone, no channel closed after an
 * error in the node's own handling, and the bystander served both ways. The test drives it in
 * turns: the node's selector, the bystander's, then the attacker's side ({@code attackerTurn},
 * whose failures are its own).
 */
public final class FuzzedNode implements AutoCloseable {

  /** Turns a condition may take; a liveness guard, not a speed check. */
  private static final int MAX_TURNS = 20_000;

  private final Selector selector;
  private final Selector bystanderSelector;
  private final ServerChannel listener;
  private final int pollLimit;
  private final Received fromByzantine = new Received();
  private final Received fromBystander = new Received();
  private final Received atBystander = new Received();
  private final Channel bystander;
  private final Channel bystanderAtNode;
  private @Nullable Channel accepted;

  /** Opens a transport; the bystander's is opened once the node listens (shm finds it then). */
  public interface TransportOpener {
    Transport open() throws IOException;
  }

  /**
   * Starts the node as {@code node} on a transport of {@code transports} and connects the bystander
   * as {@code honest} on another; the listener admits {@code byzantine} and {@code honest}.
   */
  public FuzzedNode(
      TransportOpener transports,
      ChannelConfig node,
      ChannelConfig honest,
      Identity byzantine,
      int pollLimit)
      throws IOException {
    this.pollLimit = pollLimit;
    selector = Selector.open(transports.open(), node);
    listener =
        selector.listen(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            PeerAuthenticator.pinned(
                List.of(byzantine.certificate(), honest.identity().certificate())));
    listener.key().addInterest(Interest.ACCEPT);
    bystanderSelector = Selector.open(transports.open(), honest);
    bystander =
        bystanderSelector.connect(
            listener.localAddress(),
            PeerAuthenticator.pinned(List.of(node.identity().certificate())));
    bystander.key().addInterest(Interest.RECEIVE);
    until(
        "the bystander's channel open",
        () -> bystander.state() == ChannelState.OPEN && accepted != null,
        FuzzedNode::noAttacker);
    bystanderAtNode = accepted;
    accepted = null;
  }

  public InetSocketAddress address() {
    return listener.localAddress();
  }

  public SelectorStats stats() {
    return selector.stats();
  }

  /**
   * The node's channel of the peer that connects next, once {@code peerReady} holds; what came from
   * the byzantine side before is forgotten.
   */
  public Channel accept(String what, BooleanSupplier peerReady, Runnable attackerTurn) {
    fromByzantine.messages.clear();
    accepted = null;
    until(what, () -> peerReady.getAsBoolean() && accepted != null, attackerTurn);
    Channel channel = accepted;
    accepted = null;
    return channel;
  }

  /** Asserts that nothing the byzantine peer sent was delivered above {@code maxMessageBytes}. */
  public void assertDeliveredWithin(int maxMessageBytes) {
    assertThat(fromByzantine.messages)
        .as("messages delivered from the byzantine peer")
        .allSatisfy(m -> assertThat(m.length).isLessThanOrEqualTo(maxMessageBytes));
  }

  /**
   * After the byzantine peer closed its side: asserts that the node closed {@code atNode}, closed
   * no channel on an error of its own, and still serves the bystander both ways.
   */
  public void assertUnharmedAfter(Channel atNode, Runnable attackerTurn) {
    until(
        "the node closed the byzantine channel",
        () -> atNode.state() == ChannelState.CLOSED,
        attackerTurn);
    assertThat(selector.stats().linksFailedOnError())
        .as("channels closed after an error in the node's own handling")
        .isZero();
    byte[] ping = "ping".getBytes(StandardCharsets.US_ASCII);
    int before = fromBystander.count();
    int beforeBack = atBystander.count();
    assertThat(bystander.offer(new UnsafeBuffer(ping), 0, ping.length)).isEqualTo(SendResult.SENT);
    assertThat(bystanderAtNode.offer(new UnsafeBuffer(ping), 0, ping.length))
        .isEqualTo(SendResult.SENT);
    until(
        "the bystander's messages through",
        () -> fromBystander.count() > before && atBystander.count() > beforeBack,
        FuzzedNode::noAttacker);
    assertThat(bystanderAtNode.state()).isEqualTo(ChannelState.OPEN);
  }

  /** Turns until {@code done} holds, or fails naming {@code what}. */
  public void until(String what, BooleanSupplier done, Runnable attackerTurn) {
    for (int i = 0; i < MAX_TURNS; i++) {
      if (done.getAsBoolean()) {
        return;
      }
      turn(attackerTurn);
    }
    throw new AssertionError("never happened: " + what);
  }

  /** One turn of the node, the bystander and the attacker. */
  public void turn(Runnable attackerTurn) {
    try {
      selector.selectNow(this::onNodeKey);
      bystanderSelector.selectNow(key -> key.channel().poll(atBystander, pollLimit));
    } catch (IOException e) {
      throw new AssertionError("select failed", e);
    }
    attackerTurn.run();
  }

  @Override
  public void close() {
    bystanderSelector.close();
    selector.close();
  }

  /** The attacker's turn while none is connected. */
  private static void noAttacker() {}

  private void onNodeKey(SelectionKey key) {
    if (key.isReady(Interest.ACCEPT)) {
      key.serverChannel()
          .accept()
          .ifPresent(
              channel -> {
                channel.key().addInterest(Interest.RECEIVE);
                accepted = channel;
              });
      return;
    }
    Channel channel = key.channel();
    channel.poll(channel == bystanderAtNode ? fromBystander : fromByzantine, pollLimit);
  }
}
