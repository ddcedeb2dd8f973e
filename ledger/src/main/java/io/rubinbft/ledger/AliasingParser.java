package io.rubinbft.ledger;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;

/**
 * Parses protobuf messages whose bytes fields share the input's memory instead of copying it: a
 * block's envelopes are megabytes, and the ledger only hashes and stores them. The input must never
 * change afterwards.
 */
final class AliasingParser {

  private AliasingParser() {}

  static <T> T parse(Parser<T> parser, ByteString bytes) throws InvalidProtocolBufferException {
    CodedInputStream input = bytes.newCodedInput();
    input.enableAliasing(true);
    T message = parser.parseFrom(input);
    input.checkLastTagWas(0);
    return message;
  }
}
