package io.rubinbft.net.verbs.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.DropReason;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import java.io.IOException;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A link closed from inside {@link Link#receive} (a frame made the channel fail) hands up nothing
 * more and posts nothing more: a binding may unmap its memory at once (shm does).
 */
class VerbsLinkCloseTest {

  private final LoopbackVerbsFabric fabric = new LoopbackVerbsFabric();
  private final Accepting atServer = new Accepting();
  @AutoClose private LoopbackTransports transports;

  @Test
  void aLinkClosedWhileReceivingTouchesNoFrameAfterwards() throws IOException {
    transports = new LoopbackTransports(fabric);
    VerbsTransport server = transports.server;
    VerbsTransport client = transports.client;
    Link outgoing = transports.outgoing;
    server.poll(atServer, 0);
    client.poll(atServer, 0);
    for (int frame = 0; frame < 3; frame++) {
      FrameFlyweight claimed = new FrameFlyweight();
      assertThat(outgoing.claim(claimed)).isTrue();
      claimed.putInt(0, frame);
      outgoing.commit(Integer.BYTES);
    }
    outgoing.flush();
    server.poll(atServer, 0);

    ClosingSink sink = new ClosingSink(atServer.accepted);
    int handed = atServer.accepted.receive(sink, LoopbackTransports.SIZES.receiveSlots());

    assertThat(sink.frames).as("frames the sink saw").isEqualTo(1);
    assertThat(handed).isEqualTo(1);
    assertThat(atServer.accepted.hasHeld()).isFalse();
    assertThat(atServer.accepted.canClaim()).isFalse();
    assertThat(atServer.accepted.flush()).isTrue();
  }

  /** Closes the link on the first frame, as a channel does on a frame that fails it. */
  private static final class ClosingSink implements FrameSink {
    private final Link link;
    int frames;

    ClosingSink(Link link) {
      this.link = link;
    }

    @Override
    public boolean onFrame(FrameFlyweight frame, int length) {
      frames++;
      link.close();
      return false;
    }

    @Override
    public void onUnframeable(DropReason reason, String detail) {
      link.close();
    }
  }

  /** Keeps the accepted link; ignores the rest. */
  private static final class Accepting implements LinkEvents {
    Link accepted;

    @Override
    public void accepted(LinkListener listener, Link link) {
      accepted = link;
    }

    @Override
    public void established(Link link) {}

    @Override
    public void failed(Link link, String reason) {}

    @Override
    public void readable(Link link) {}

    @Override
    public void writable(Link link) {}

    @Override
    public void closed(Link link, String reason) {}
  }
}
