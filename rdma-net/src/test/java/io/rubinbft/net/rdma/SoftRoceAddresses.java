package io.rubinbft.net.rdma;

import io.rubinbft.net.transport.Link;
import io.rubinbft.net.transport.LinkEvents;
import io.rubinbft.net.transport.LinkListener;
import io.rubinbft.net.transport.LinkSizes;
import io.rubinbft.net.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A transport that moves loopback addresses onto the guest's RDMA address: the channel contract
 * listens on loopback, which rdma_cm cannot route (it resolves no RDMA device for 127.0.0.1).
 */
final class SoftRoceAddresses implements Transport {

  private final Transport delegate;
  private final InetAddress rdmaAddress;

  SoftRoceAddresses(Transport delegate, InetAddress rdmaAddress) {
    this.delegate = delegate;
    this.rdmaAddress = rdmaAddress;
  }

  private InetSocketAddress onRdma(InetSocketAddress address) {
    return address.getAddress().isLoopbackAddress()
        ? new InetSocketAddress(rdmaAddress, address.getPort())
        : address;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public LinkListener listen(InetSocketAddress address, LinkSizes sizes) throws IOException {
    return delegate.listen(onRdma(address), sizes);
  }

  @Override
  public Link connect(InetSocketAddress address, LinkSizes sizes) throws IOException {
    return delegate.connect(onRdma(address), sizes);
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
}
