package io.rubinbft.net.verbs.provider;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * TEST DOUBLE of an RDMA fabric for the verbs provider's tests: devices in one process find each
 * other's listeners by port here. Not a transport anyone should run: the real bindings are the shm
 * emulation and rdma-core.
 */
final class LoopbackVerbsFabric {

  private final boolean passiveSideEstablishedLate;
  private final Map<Integer, LoopbackVerbsDevice.Listener> listeners = new HashMap<>();
  private int nextPort = 40_000;
  private int nextQueuePair = 1;
  private long receiverNotReady;

  /** A fabric that reports a connection established to both sides as soon as it is accepted. */
  LoopbackVerbsFabric() {
    this(false);
  }

  /**
   * With {@code passiveSideEstablishedLate}, the accepting side's ESTABLISHED event is held back
   * until a receive has completed on its queue pair and been polled, and then comes with the next
   * poll of connection events: the ordering real RDMA can show (the active side sends as soon as it
   * is established itself), made certain instead of rare.
   */
  LoopbackVerbsFabric(boolean passiveSideEstablishedLate) {
    this.passiveSideEstablishedLate = passiveSideEstablishedLate;
  }

  boolean passiveSideEstablishedLate() {
    return passiveSideEstablishedLate;
  }

  InetSocketAddress bind(InetSocketAddress asked, LoopbackVerbsDevice.Listener listener) {
    int port = asked.getPort() == 0 ? nextPort++ : asked.getPort();
    if (listeners.putIfAbsent(port, listener) != null) {
      throw new IllegalStateException("port " + port + " is taken");
    }
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
  }

  void unbind(int port) {
    listeners.remove(port);
  }

  LoopbackVerbsDevice.Listener listenerAt(InetSocketAddress address) {
    return listeners.get(address.getPort());
  }

  int newQueuePairNumber() {
    return nextQueuePair++;
  }

  /** A send found no posted receive: the failure the credit rules must make impossible. */
  void countReceiverNotReady() {
    receiverNotReady++;
  }

  long receiverNotReady() {
    return receiverNotReady;
  }
}
