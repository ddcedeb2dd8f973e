package io.rubinbft.orderer.onboarding;

import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.testing.ScriptedDeliver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;

/**
 * Deliver servers on loopback that serve (parts of) Fabric's fixture chain over TLS with orderer
 * 1's key pair, as the sources of a pulling test; closed together after the test.
 */
final class FixtureSources implements AutoCloseable {

  private final List<ScriptedDeliver> servers = new ArrayList<>();

  /** A server on a free port serving {@code chain}. */
  ScriptedDeliver serving(List<Block> chain) throws IOException {
    ScriptedDeliver server =
        ScriptedDeliver.start(new HostPort("127.0.0.1", 0), FixturePulling.tls(), () -> chain);
    servers.add(server);
    return server;
  }

  /** The server's endpoint as an orderer org's Endpoints value names it. */
  static String endpoint(ScriptedDeliver server) {
    return "127.0.0.1:" + server.address().getPort();
  }

  @Override
  public void close() {
    servers.forEach(ScriptedDeliver::close);
  }
}
