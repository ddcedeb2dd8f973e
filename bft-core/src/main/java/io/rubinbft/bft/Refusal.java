package io.rubinbft.bft;

/**
 * Why a replica did not take a client request, as a kind its host can act on (push back, tell the
 * client it was ordered, refuse the other payload) and a {@link #message} for people.
 */
public sealed interface Refusal {

  /** The refusal as a sentence for logs and clients, its kind first ("pool full: ..."). */
  String message();

  /**
   * The pool is at its bound: the client should retry later.
   *
   * @param bound the bound it reached, e.g. "100000 requests pending"
   */
  record PoolFull(String bound) implements Refusal {
    @Override
    public String message() {
      return "pool full: " + bound + ", retry later";
    }
  }

  /** The request's id was decided already. */
  record Duplicate(RequestId id) implements Refusal {
    @Override
    public String message() {
      return "duplicate: request " + id + " was decided already";
    }
  }

  /** Another request is pending under the request's id. */
  record Conflict(RequestId id) implements Refusal {
    @Override
    public String message() {
      return "conflict: request " + id + " is pending with a different payload";
    }
  }

  /** The request is larger than a replica takes. */
  record TooLarge(long bytes, long maxBytes) implements Refusal {
    @Override
    public String message() {
      return "request too large: " + bytes + " bytes but at most " + maxBytes;
    }
  }
}
