package io.rubinbft.orderer.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/** Finds blocks of consecutive free loopback ports, for clusters whose config names ports. */
public final class FreePorts {

  private static final SplittableRandom RANDOM = new SplittableRandom();

  /**
   * Ports are picked in [10000, 32000): below Linux's ephemeral range (32768-60999 by default), so
   * an outgoing connection of a test, a node or the build cannot take a picked port as its source
   * port between the pick and the node binding it.
   */
  private static final int LOWEST = 10_000;

  private static final int BEYOND_HIGHEST = 32_000;

  /**
   * Every port handed out in this JVM: a block is free when picked but not bound until its node
   * starts, so without this a cluster's second block could overlap its first.
   */
  private static final Set<Integer> HANDED_OUT = new HashSet<>();

  private FreePorts() {}

  /**
   * The first of {@code count} consecutive ports free on 127.0.0.1 right now and not handed out
   * before in this JVM.
   */
  public static synchronized int block(int count) {
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = LOWEST + RANDOM.nextInt(BEYOND_HIGHEST - LOWEST - count);
      if (noneHandedOut(base, count) && allFree(base, count)) {
        for (int port = base; port < base + count; port++) {
          HANDED_OUT.add(port);
        }
        return base;
      }
    }
    throw new IllegalStateException("no block of " + count + " free loopback ports found");
  }

  private static boolean noneHandedOut(int base, int count) {
    for (int port = base; port < base + count; port++) {
      if (HANDED_OUT.contains(port)) {
        return false;
      }
    }
    return true;
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
