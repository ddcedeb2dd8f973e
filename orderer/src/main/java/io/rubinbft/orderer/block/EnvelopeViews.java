package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * Parses envelopes and payloads whose {@code bytes} fields are views of the parsed bytes instead of
 * copies. An envelope is little more than its payload, and its payload little more than its data,
 * so parsing both the usual way copies the transaction twice only to read a few header fields.
 * {@link ByteString}s are immutable, which is what makes the views safe; a view keeps the whole
 * parsed array alive, so what is kept for long (cache keys, stored blocks) is copied out of it.
 */
public final class EnvelopeViews {

  private EnvelopeViews() {}

  /** The envelope in {@code bytes}; its payload and signature are views of them. */
  public static Envelope envelope(ByteString bytes) throws InvalidProtocolBufferException {
    return parse(Envelope.parser(), bytes);
  }

  /** The payload in {@code bytes}; its header's parts and its data are views of them. */
  public static Payload payload(ByteString bytes) throws InvalidProtocolBufferException {
    return parse(Payload.parser(), bytes);
  }

  private static <T extends MessageLite> T parse(Parser<T> parser, ByteString bytes)
      throws InvalidProtocolBufferException {
    CodedInputStream input = bytes.newCodedInput();
    input.enableAliasing(true);
    T message = parser.parseFrom(input);
    // What parseFrom(ByteString) checks too: the message did not end at a stray end-group tag.
    input.checkLastTagWas(0);
    return message;
  }
}
