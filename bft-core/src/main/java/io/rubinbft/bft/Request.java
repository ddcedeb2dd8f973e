package io.rubinbft.bft;

/**
 * A client request: its id and the opaque bytes the application orders (for Fabric, an envelope).
 */
public record Request(RequestId id, byte[] payload) {

  public Request {
    if (id == null || payload == null) {
      throw new IllegalArgumentException("request needs an id and a payload");
    }
  }

  /** Bytes this request counts against batch and pool limits. */
  public int size() {
    return payload.length + id.client().length() + id.key().length();
  }
}
