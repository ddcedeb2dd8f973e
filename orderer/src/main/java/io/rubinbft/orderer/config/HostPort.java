package io.rubinbft.orderer.config;

/**
 * A listen or dial address.
 *
 * @param host a host name or IP address
 * @param port a TCP port, 0 for "any free port" (tests)
 */
public record HostPort(String host, int port) {

  /** Parses {@code host:port} (IPv6 as {@code [::1]:7050}); the message says what is wrong. */
  public static HostPort parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("is not of the form host:port");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("has a port that is not a number");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("has port " + port + " outside 0-65535");
    }
    return new HostPort(host, port);
  }

  @Override
  public String toString() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
