package io.rubinbft.orderer.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.SplittableRandom;

/** Finds blocks of consecutive free loopback ports, for clusters whose config names ports. */
public final class FreePorts {

  private static final SplittableRandom RANDOM = new SplittableRandom();

  private FreePorts() {}

  /** The first of {@code count} consecutive ports free on 127.0.0.1 right now. */
  public static int block(int count) {
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = 20_000 + RANDOM.nextInt(40_000);
      if (allFree(base, count)) {
        return base;
      }
    }
    throw new IllegalStateException("no block of " + count + " free loopback ports found");
  }

  private static boolean allFree(int base, int count) {
    for (int port = base; port < base + count; port++) {
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        socket.setReuseAddress(true);
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
