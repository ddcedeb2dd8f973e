package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;

/**
 * An envelope waiting in the request pool, already validated at ingress.
 *
 * @param envelope the envelope bytes exactly as the client sent them
 * @param config true for a CONFIG envelope (the result of a config update), which goes alone into
 *     its block
 */
public record PendingRequest(ByteString envelope, boolean config) {

  public int size() {
    return envelope.size();
  }
}
