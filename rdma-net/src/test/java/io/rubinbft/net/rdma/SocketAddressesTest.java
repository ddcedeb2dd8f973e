package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class SocketAddressesTest {

  @Test
  void writesSockaddrInWithPortAndAddressInNetworkOrder() throws UnknownHostException {
    try (Arena arena = Arena.ofConfined()) {
      InetSocketAddress address =
          new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1}), 7471);
      byte[] bytes = SocketAddresses.toNative(address, arena).toArray(JAVA_BYTE);
      // AF_INET = 2 (little-endian host order), port 7471 = 0x1d2f, 192.0.2.1, 8 zero bytes
      assertThat(bytes)
          .containsExactly(2, 0, 0x1d, 0x2f, 192 - 256, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    }
  }

  @Test
  void writesSockaddrIn6() throws UnknownHostException {
    try (Arena arena = Arena.ofConfined()) {
      InetSocketAddress address = new InetSocketAddress(InetAddress.getByName("::1"), 1);
      byte[] bytes = SocketAddresses.toNative(address, arena).toArray(JAVA_BYTE);
      assertThat(bytes).hasSize(28);
      assertThat(bytes[0]).isEqualTo((byte) 10);
      assertThat(bytes[3]).isEqualTo((byte) 1);
      assertThat(bytes[23]).isEqualTo((byte) 1);
    }
  }

  @Test
  void readsPortsInNetworkOrder() {
    assertThat(SocketAddresses.portFromNetworkOrder((short) 0x2f1d)).isEqualTo(7471);
    assertThat(SocketAddresses.portFromNetworkOrder((short) 0xffff)).isEqualTo(65535);
  }

  @Test
  void refusesUnresolvedAddresses() {
    try (Arena arena = Arena.ofConfined()) {
      assertThatThrownBy(
              () -> SocketAddresses.toNative(InetSocketAddress.createUnresolved("peer", 1), arena))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unresolved");
    }
  }
}
