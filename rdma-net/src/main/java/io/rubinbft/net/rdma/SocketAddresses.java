package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Writes Java socket addresses as the C {@code sockaddr_in} / {@code sockaddr_in6} rdma_cm takes.
 */
final class SocketAddresses {

  private static final short AF_INET = 2;
  private static final short AF_INET6 = 10;
  private static final int SOCKADDR_IN_BYTES = 16;
  private static final int SOCKADDR_IN6_BYTES = 28;

  private SocketAddresses() {}

  /** sockaddr_in: family 0 (host order), port 2 (network order), address 4; sockaddr_in6: 8. */
  static MemorySegment toNative(InetSocketAddress address, Arena arena) {
    InetAddress ip = address.getAddress();
    if (ip == null) {
      throw new IllegalArgumentException(address + " is unresolved; give an IP address");
    }
    boolean v4 = ip instanceof Inet4Address;
    MemorySegment sockaddr = arena.allocate(v4 ? SOCKADDR_IN_BYTES : SOCKADDR_IN6_BYTES, 4);
    sockaddr.set(JAVA_SHORT, 0, v4 ? AF_INET : AF_INET6);
    sockaddr.set(JAVA_SHORT, 2, Short.reverseBytes((short) address.getPort()));
    byte[] bytes = ip.getAddress();
    MemorySegment.copy(bytes, 0, sockaddr, JAVA_BYTE, v4 ? 4 : 8, bytes.length);
    if (ip instanceof Inet6Address v6 && v6.getScopeId() != 0) {
      sockaddr.set(JAVA_INT, 24, v6.getScopeId());
    }
    return sockaddr;
  }

  /** rdma_get_src_port's network-order port as a number. */
  static int portFromNetworkOrder(short port) {
    return Short.toUnsignedInt(Short.reverseBytes(port));
  }
}
