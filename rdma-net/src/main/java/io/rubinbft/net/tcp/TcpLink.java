package io.rubinbft.net.tcp;

import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.transport.AbstractLink;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.HeldFrameHandler;
import io.rubinbft.net.transport.LinkSizes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A link over one non-blocking TCP socket, with its send and receive rings: handshake-sized until
 * the peer has authenticated, full-sized after.
 */
final class TcpLink extends AbstractLink {

  private final SocketChannel socket;
  private final TcpSendRing sendRing;
  private final TcpReceiveRing receiveRing;

  @SuppressWarnings("NullAway.Init") // registered right after creation, before any use
  private SelectionKey selectionKey;

  TcpLink(SocketChannel socket, LinkSizes sizes, InetSocketAddress remoteAddress) {
    super(sizes, remoteAddress);
    this.socket = socket;
    this.sendRing =
        new TcpSendRing(sizes.sendSlots(), sizes.maxFrameBytes(), sizes.handshakeFrameBytes());
    this.receiveRing =
        new TcpReceiveRing(
            sizes.receiveSlots(), sizes.maxFrameBytes(), sizes.handshakeFrameBytes());
  }

  @Override
  public void authenticated() {
    sendRing.authenticated();
    receiveRing.authenticated();
  }

  void registered(SelectionKey key) {
    this.selectionKey = key;
  }

  SocketChannel socket() {
    return socket;
  }

  @Override
  public boolean canClaim() {
    return sendRing.canClaim();
  }

  @Override
  public boolean claim(FrameFlyweight frame) {
    return sendRing.claim(frame);
  }

  @Override
  public void commit(int frameLength) {
    sendRing.commit(frameLength);
  }

  @Override
  public boolean flush() throws IOException {
    if (!selectionKey.isValid()) {
      throw new ClosedChannelException();
    }
    if (!socket.isConnected()) {
      return false;
    }
    boolean done = sendRing.flush(socket);
    int ops = selectionKey.interestOps();
    int wanted = done ? ops & ~SelectionKey.OP_WRITE : ops | SelectionKey.OP_WRITE;
    if (wanted != ops) {
      selectionKey.interestOps(wanted);
    }
    return done;
  }

  /** The selector found the socket readable. */
  void onSocketReadable() {
    receiveRing.onSocketReadable();
  }

  @Override
  public int receive(FrameSink sink, int limit) throws IOException {
    return receiveRing.receive(socket, sink, limit);
  }

  @Override
  public boolean hasHeld() {
    return receiveRing.hasHeld();
  }

  @Override
  public int deliverHeld(HeldFrameHandler handler, int limit) {
    return receiveRing.deliverHeld(handler, limit);
  }

  @Override
  public void close() {
    if (selectionKey != null) {
      selectionKey.cancel();
    }
    try {
      socket.close();
    } catch (IOException e) {
      // Nothing left to do with a socket that cannot even be closed: the link is gone either way.
    }
    sendRing.close();
    receiveRing.close();
  }
}
