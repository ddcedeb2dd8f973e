package io.rubinbft.orderer.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts one node off the others' replica traffic: a TCP proxy in front of every node's cluster port
 * (the port the channel config names; the node listens on another one), which while a node is
 * isolated passes none of the bytes to or from it and throws them away instead, as a network that
 * drops packets does (no connection is refused or reset, the senders' streams just stall).
 *
 * <p>Why a proxy: neither iptables nor nftables is installed on the machines the suite runs on, and
 * a network namespace gives a node an address outside loopback. Each node dials every peer it sends
 * to (ClusterNetwork), so a proxy in front of a port sees both the isolated node's inbound traffic
 * (every connection to its own proxy) and its outbound traffic (connections to the others' proxies
 * dialed from a source port the isolated process owns, found through /proc: the socket with that
 * local port in /proc/net/tcp{,6} and the process's descriptors in /proc/PID/fd). Clients'
 * Broadcast and Deliver connections do not go through it.
 *
 * <p>Healing closes every connection whose bytes were dropped (their streams lost data, the
 * authenticated channel would reject the rest), so the nodes dial each other again.
 */
final class ClusterPartition implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterPartition.class);

  private final List<Front> fronts = new CopyOnWriteArrayList<>();
  private volatile Isolated isolated;

  /** The isolated node: index of its proxy, and its process id when it was cut off. */
  private record Isolated(int front, long pid) {}

  /**
   * Starts a proxy on 127.0.0.1:{@code publicPort} that forwards to 127.0.0.1:{@code nodePort}; the
   * proxies are numbered in the order they are added.
   */
  void add(int publicPort, int nodePort) throws IOException {
    ServerSocket server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), publicPort));
    Front front = new Front(fronts.size(), server, nodePort);
    fronts.add(front);
    Thread.ofVirtual().name("proxy-" + publicPort).start(front::acceptLoop);
  }

  /**
   * Drops all replica traffic to and from the node behind proxy {@code index}, process {@code pid}.
   */
  void isolate(int index, long pid) {
    isolated = new Isolated(index, pid);
    LOG.info("isolating the node behind proxy {} (pid {})", index, pid);
  }

  /** Passes all traffic again; closes the connections whose bytes were dropped. */
  void heal() {
    isolated = null;
    for (Front front : fronts) {
      for (Link link : front.links) {
        if (link.dropped) {
          link.close();
        }
      }
    }
    LOG.info("partition healed");
  }

  @Override
  public void close() {
    isolated = null;
    for (Front front : fronts) {
      try {
        front.server.close();
      } catch (IOException e) {
        LOG.debug("closing proxy {}", front.index, e);
      }
      front.links.forEach(Link::close);
    }
  }

  /** Whether bytes of {@code link} (through proxy {@code front}) must be dropped now. */
  private boolean cut(Front front, Link link) {
    Isolated now = isolated;
    if (now == null) {
      return false;
    }
    if (now.front() == front.index) {
      return true;
    }
    if (link.dialerPid == 0 || link.dialerCheckedFor != now.pid()) {
      link.dialerCheckedFor = now.pid();
      link.dialerPid = ownsLocalPort(now.pid(), link.sourcePort) ? now.pid() : -1;
    }
    return link.dialerPid == now.pid();
  }

  /** Whether process {@code pid} holds the TCP socket bound to local port {@code port}. */
  static boolean ownsLocalPort(long pid, int port) {
    try {
      Set<Long> inodes = new HashSet<>();
      for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
        Path file = Path.of(table);
        if (!Files.exists(file)) {
          continue;
        }
        for (String line : Files.readAllLines(file)) {
          String[] fields = line.trim().split("\\s+", 0);
          if (fields.length < 10 || !fields[1].contains(":")) {
            continue;
          }
          String localPort = fields[1].substring(fields[1].lastIndexOf(':') + 1);
          if (localPort.toUpperCase(Locale.ROOT).equals(String.format("%04X", port))) {
            inodes.add(Long.parseLong(fields[9]));
          }
        }
      }
      if (inodes.isEmpty()) {
        return false;
      }
      try (var descriptors = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
        return descriptors.anyMatch(
            fd -> {
              try {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("socket:[")
                    && inodes.contains(Long.parseLong(target.substring(8, target.length() - 1)));
              } catch (IOException | RuntimeException e) {
                return false;
              }
            });
      }
    } catch (IOException e) {
      return false;
    }
  }

  /** One proxy: accepts on the public port, one {@link Link} per connection. */
  private final class Front {
    final int index;
    final ServerSocket server;
    final int nodePort;
    final List<Link> links = new CopyOnWriteArrayList<>();

    Front(int index, ServerSocket server, int nodePort) {
      this.index = index;
      this.server = server;
      this.nodePort = nodePort;
    }

    void acceptLoop() {
      while (!server.isClosed()) {
        try {
          Socket in = server.accept();
          Socket out;
          try {
            out = new Socket(InetAddress.getLoopbackAddress(), nodePort);
          } catch (IOException e) {
            // The node is down: refuse as it would.
            in.close();
            continue;
          }
          in.setTcpNoDelay(true);
          out.setTcpNoDelay(true);
          Link link = new Link(in, out, in.getPort());
          links.add(link);
          Thread.ofVirtual().start(() -> pump(link, in, out));
          Thread.ofVirtual().start(() -> pump(link, out, in));
        } catch (IOException e) {
          if (!server.isClosed()) {
            LOG.debug("proxy {} accept failed", index, e);
          }
        }
      }
    }

    private void pump(Link link, Socket from, Socket to) {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream input = from.getInputStream()) {
        OutputStream output = to.getOutputStream();
        for (int n = input.read(buffer); n >= 0; n = input.read(buffer)) {
          if (cut(this, link)) {
            link.dropped = true;
          } else if (!link.dropped) {
            output.write(buffer, 0, n);
          }
        }
      } catch (IOException e) {
        LOG.trace("proxy {} link ended", index, e);
      } finally {
        link.close();
        links.remove(link);
      }
    }
  }

  /** One proxied connection. */
  private static final class Link {
    final Socket in;
    final Socket out;
    final int sourcePort;
    volatile boolean dropped;
    volatile long dialerPid;
    volatile long dialerCheckedFor;

    Link(Socket in, Socket out, int sourcePort) {
      this.in = in;
      this.out = out;
      this.sourcePort = sourcePort;
    }

    void close() {
      try {
        in.close();
      } catch (IOException e) {
        LOG.trace("close", e);
      }
      try {
        out.close();
      } catch (IOException e) {
        LOG.trace("close", e);
      }
    }
  }
}
