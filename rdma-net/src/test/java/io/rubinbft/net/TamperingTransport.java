package io.rubinbft.net;

import io.rubinbft.net.frame.FrameDescriptor;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.transport.FrameSink;
import io.rubinbft.net.transport.HeldFrameHandler;
import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A Byzantine sender for tests: wraps a real transport and, on request, writes an extra frame onto
 * the wire after the next frame this side sends: a copy with a broken MAC, an exact replay,
 * garbage, or a frame whose length field cannot be right. The honest frames still go out unchanged.
 * It also keeps a copy of the first frames each outgoing link sent (the handshake), for a test to
 * replay elsewhere.
 */
public final class TamperingTransport implements Transport {

  /** What to inject after the next frame. */
  public enum Injection {
    BAD_MAC,
    REPLAY,
    GARBAGE,
    TRUNCATED_LENGTH,
    OVERSIZED_LENGTH
  }

  private final Transport delegate;
  private final List<TamperingLink> links = new ArrayList<>();

  public TamperingTransport(Transport delegate) {
    this.delegate = delegate;
  }

  /** Frames the outgoing links keep a copy of, from the first: HELLO, AUTH and a few more. */
  private static final int FRAMES_RECORDED = 8;

  /** The first frames (as sent) of outgoing link {@code index}, in the order they were made. */
  public List<byte[]> firstFramesOf(int index) {
    return List.copyOf(links.get(index).recorded);
  }

  /** Injects after the next frame sent on every outgoing link made so far. */
  public void injectAfterNextFrame(Injection injection) {
    links.forEach(link -> link.pending = injection);
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public LinkListener listen(InetSocketAddress address, LinkSizes sizes) throws IOException {
    return delegate.listen(address, sizes);
  }

  @Override
  public Link connect(InetSocketAddress address, LinkSizes sizes) throws IOException {
    TamperingLink link = new TamperingLink(delegate.connect(address, sizes));
    links.add(link);
    return link;
  }

  @Override
  public int poll(LinkEvents events, long timeoutNanos) throws IOException {
    return delegate.poll(events, timeoutNanos);
  }

  @Override
  public void wakeup() {
    delegate.wakeup();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private static final class TamperingLink implements Link {

    private final Link delegate;
    private final FrameFlyweight injected = new FrameFlyweight();
    private final List<byte[]> recorded = new ArrayList<>();
    private FrameFlyweight lastClaimed;
    private Injection pending;

    TamperingLink(Link delegate) {
      this.delegate = delegate;
    }

    @Override
    public void authenticated() {
      delegate.authenticated();
    }

    @Override
    public void commit(int frameLength) {
      byte[] copy = new byte[frameLength];
      lastClaimed.getBytes(0, copy);
      if (recorded.size() < FRAMES_RECORDED) {
        recorded.add(copy);
      }
      delegate.commit(frameLength);
      if (pending != null && delegate.claim(injected)) {
        injected.putBytes(0, copy);
        int length = tamper(pending, frameLength);
        pending = null;
        delegate.commit(length);
      }
    }

    /** Rewrites {@link #injected} (a copy of the last frame); returns the bytes to put out. */
    private int tamper(Injection injection, int frameLength) {
      switch (injection) {
        case BAD_MAC -> {
          int mac = FrameDescriptor.tagOffset(frameLength);
          injected.putByte(mac, (byte) ~injected.getByte(mac));
        }
        case REPLAY -> {
          // The exact bytes again: a valid MAC over an old sequence number.
        }
        case GARBAGE -> {
          for (int i = FrameDescriptor.VERSION_OFFSET; i < frameLength; i++) {
            injected.putByte(i, (byte) (i * 31 + 7));
          }
        }
        case TRUNCATED_LENGTH -> {
          injected.putInt(FrameDescriptor.LENGTH_OFFSET, FrameDescriptor.OVERHEAD - 1);
        }
        case OVERSIZED_LENGTH -> {
          injected.putInt(FrameDescriptor.LENGTH_OFFSET, delegate.sizes().maxFrameBytes() * 4);
        }
      }
      return frameLength;
    }

    @Override
    public boolean claim(FrameFlyweight frame) {
      lastClaimed = frame;
      return delegate.claim(frame);
    }

    @Override
    public LinkSizes sizes() {
      return delegate.sizes();
    }

    @Override
    public InetSocketAddress remoteAddress() {
      return delegate.remoteAddress();
    }

    @Override
    public void attach(Object attachment) {
      delegate.attach(attachment);
    }

    @Override
    public Object attachment() {
      return delegate.attachment();
    }

    @Override
    public boolean canClaim() {
      return delegate.canClaim();
    }

    @Override
    public boolean flush() throws IOException {
      return delegate.flush();
    }

    @Override
    public int receive(FrameSink sink, int limit) throws IOException {
      return delegate.receive(sink, limit);
    }

    @Override
    public boolean hasHeld() {
      return delegate.hasHeld();
    }

    @Override
    public int deliverHeld(HeldFrameHandler handler, int limit) {
      return delegate.deliverHeld(handler, limit);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
