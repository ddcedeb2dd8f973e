package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import java.util.List;

/**
 * The envelopes of the next block, taken from the head of the pending requests.
 *
 * @param envelopes in order, byte for byte
 * @param config true when this is a config block's single CONFIG envelope
 */
public record Batch(List<ByteString> envelopes, boolean config) {

  public Batch {
    envelopes = List.copyOf(envelopes);
  }

  public int size() {
    return envelopes.size();
  }
}
