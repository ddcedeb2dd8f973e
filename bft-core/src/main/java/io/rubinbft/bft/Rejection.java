package io.rubinbft.bft;

/** A client request this replica did not take, and why (e.g. the pool is full: push back). */
public record Rejection(RequestId id, Refusal refusal) {

  /** Why, as a sentence ({@link Refusal#message}). */
  public String reason() {
    return refusal.message();
  }
}
