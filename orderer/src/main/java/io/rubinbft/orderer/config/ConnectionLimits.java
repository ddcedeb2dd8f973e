package io.rubinbft.orderer.config;

import java.util.List;

/**
 * Caps on the Broadcast/Deliver listener's TCP connections ({@code General.Connections}). A
 * connection counts from its accept; it is <em>handshaking</em> until its TLS handshake (or,
 * without TLS, HTTP/2's preface) is done, which anyone who reaches the port can hold without a key.
 *
 * @param max connections open at once in total; one more is closed as it is accepted
 * @param maxPerAddress connections open at once from one source address; one more from it is closed
 *     as it is accepted
 * @param maxHandshaking handshaking connections in total; one more closes the oldest handshaking
 *     one
 * @param maxHandshakingPerAddress handshaking connections from one source address; one more closes
 *     that address's oldest handshaking one
 */
public record ConnectionLimits(
    int max, int maxPerAddress, int maxHandshaking, int maxHandshakingPerAddress) {

  /**
   * The defaults: a Fabric peer opens one connection to an orderer for its gateway's Broadcast
   * streams and about one per channel for Deliver, so even several hundred peers behind one NAT or
   * load balancer address stay under the per-address cap.
   */
  public static final ConnectionLimits DEFAULTS = new ConnectionLimits(4096, 512, 256, 64);

  public ConnectionLimits {
    if (max < 1 || maxPerAddress < 1 || maxHandshaking < 1 || maxHandshakingPerAddress < 1) {
      throw new IllegalArgumentException(
          "connection caps must be at least 1, got "
              + List.of(max, maxPerAddress, maxHandshaking, maxHandshakingPerAddress));
    }
  }
}
