package io.rubinbft.orderer.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** Raw loopback sockets of a stranger to the node: did the node close one. */
public final class StrangerSockets {

  private StrangerSockets() {}

  /**
   * Whether the node closed {@code socket} (end of stream, or reset) within {@code millis}, reading
   * and ignoring what it sends before (its HELLO, SETTINGS or TLS alert); false when it stayed
   * open.
   */
  public static boolean closedByTheNode(Socket socket, int millis) throws IOException {
    socket.setSoTimeout(millis);
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      while (in.read(buffer) >= 0) {
        // what the node sent before it closed, if anything
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset by the node
    }
  }
}
