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

  /**
   * Bytes this request counts against request, batch and pool limits: the payload and the id's
   * UTF-8 bytes, exactly what the wire codec counts (WIRE.md), so a batch the primary builds within
   * its limits is one the backups decode.
   */
  public int size() {
    return payload.length + id.utf8Bytes();
  }
}
