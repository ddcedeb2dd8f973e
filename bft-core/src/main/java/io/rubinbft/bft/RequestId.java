package io.rubinbft.bft;

/**
 * Identifies a request for deduplication: the submitting client and the client's own key (for
 * Fabric, the transaction id). A request is ordered at most once per id.
 */
public record RequestId(String client, String key) {

  public RequestId {
    if (client == null || key == null) {
      throw new IllegalArgumentException("request id needs a client and a key");
    }
  }

  @Override
  public String toString() {
    return client + "/" + key;
  }
}
