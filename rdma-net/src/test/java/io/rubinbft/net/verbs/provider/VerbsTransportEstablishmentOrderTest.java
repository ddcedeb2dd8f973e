package io.rubinbft.net.verbs.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.DropReason;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A receive that completes on the accepting side before its ESTABLISHED event (as on real RDMA) is
 * held: the link is reported accepted first, then readable, and the frame is handed up intact.
 */
class VerbsTransportEstablishmentOrderTest {

  private final LoopbackVerbsFabric fabric = new LoopbackVerbsFabric(true);
  private final Recorder atServer = new Recorder();
  private final Recorder atClient = new Recorder();
  @AutoClose private LoopbackTransports transports;

  @Test
  void holdsAReceiveThatCompletesBeforeEstablishedUntilTheLinkIsAccepted() throws IOException {
    transports = new LoopbackTransports(fabric);
    VerbsTransport server = transports.server;
    VerbsTransport client = transports.client;
    Link outgoing = transports.outgoing;

    server.poll(atServer, 0); // the request, accepted; this side's ESTABLISHED is still to come
    client.poll(atClient, 0);
    assertThat(atClient.events).containsExactly("established");
    send(outgoing, 0x5eed);
    server.poll(atServer, 0); // the receive completes while the link is not yet up

    assertThat(atServer.events).as("nothing reported for a link not yet up").isEmpty();

    server.poll(atServer, 0);

    assertThat(atServer.events).containsExactly("accepted", "readable");
    List<Integer> arrived = new ArrayList<>();
    int handed =
        atServer.accepted.receive(new Collecting(arrived), LoopbackTransports.SIZES.receiveSlots());
    assertThat(handed).isEqualTo(1);
    assertThat(arrived).containsExactly(0x5eed);
  }

  private static void send(Link link, int word) throws IOException {
    FrameFlyweight frame = new FrameFlyweight();
    assertThat(link.claim(frame)).isTrue();
    frame.putInt(0, word);
    link.commit(Integer.BYTES);
    link.flush();
  }

  /** Records what a transport reports, in order. */
  private static final class Recorder implements LinkEvents {
    final List<String> events = new ArrayList<>();
    Link accepted;

    @Override
    public void accepted(LinkListener listener, Link link) {
      events.add("accepted");
      accepted = link;
    }

    @Override
    public void established(Link link) {
      events.add("established");
    }

    @Override
    public void failed(Link link, String reason) {
      events.add("failed: " + reason);
    }

    @Override
    public void readable(Link link) {
      assertThat(link).as("a readable link is one this side was told of").isSameAs(accepted);
      events.add("readable");
    }

    @Override
    public void writable(Link link) {
      events.add("writable");
    }

    @Override
    public void closed(Link link, String reason) {
      events.add("closed: " + reason);
    }
  }

  /** Collects the first word of every frame and releases it. */
  private record Collecting(List<Integer> words) implements FrameSink {
    @Override
    public boolean onFrame(FrameFlyweight frame, int length) {
      words.add(frame.getInt(0));
      return false;
    }

    @Override
    public void onUnframeable(DropReason reason, String detail) {
      words.add(-1);
    }
  }
}
