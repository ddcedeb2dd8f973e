package io.rubinbft.bft;

/**
 * Identifies a request for deduplication: the submitting client and the client's own key (for
 * Fabric, the transaction id). A request is ordered at most once per id.
 *
 * <p>Both strings must be well-formed UTF-16 (no lone surrogate): such a string has no UTF-8 form,
 * the JDK would send it as '?', and the id would arrive at peers as a different id.
 */
public record RequestId(String client, String key) {

  public RequestId {
    if (client == null || key == null) {
      throw new IllegalArgumentException("request id needs a client and a key");
    }
    requireEncodable("client", client);
    requireEncodable("key", key);
  }

  /** The UTF-8 bytes of client and key: what the id adds to a request's size on the wire. */
  public int utf8Bytes() {
    return Utf8.length(client) + Utf8.length(key);
  }

  @Override
  public String toString() {
    return client + "/" + key;
  }

  private static void requireEncodable(String field, String value) {
    int index = Utf8.loneSurrogate(value);
    if (index >= 0) {
      throw new IllegalArgumentException(
          "request id " + field + " has a lone surrogate at index " + index + ": not UTF-8");
    }
  }
}
