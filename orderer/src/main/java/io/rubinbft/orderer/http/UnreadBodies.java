package io.rubinbft.orderer.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Keeps a kept-alive connection in step when a handler answers before it read the request's body (a
 * 401, 404 or 405 that never looks at it). As the answer's headers go out, the rest of the body is
 * taken if it has all arrived; otherwise the answer says {@code Connection: close} and the
 * connection ends after it. Without this the handlers of the {@code com.sun.net.httpserver} bridge
 * commit their answer before Jetty could say so, and Jetty then closed the connection unannounced
 * under a client that had already sent its next request on it. Nothing waits for a body that has
 * not arrived, so no thread is held by one that never comes.
 */
final class UnreadBodies extends Handler.Wrapper {

  UnreadBodies(Handler handler) {
    super(handler);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    return super.handle(request, new Announcing(request, response), callback);
  }

  /** A response that, as it commits, takes what is left of the body or announces the close. */
  private static final class Announcing extends Response.Wrapper {

    Announcing(Request request, Response response) {
      super(request, response);
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
      if (!isCommitted() && !getRequest().consumeAvailable()) {
        getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
      }
      super.write(last, content, callback);
    }
  }
}
