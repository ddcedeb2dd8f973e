package io.rubinbft.orderer.validation;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.block.EnvelopeViews;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.orderer.SeekInfo;

/**
 * Decodes the parts of a client's envelope, failing with Fabric's message (protobuf's detail
 * appended). The failure never leaves this package: the validators turn it into a {@link Verdict}.
 */
final class Decoding {

  /** A part that does not decode; the message is the client-facing reason. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private Decoding() {}

  /**
   * The payload's header and data are views of {@code bytes}: the validator only reads them. (The
   * headers parsed from it copy their fields, so nothing kept from them, such as a cached creator,
   * holds the whole envelope.)
   */
  static Payload payload(ByteString bytes) throws Malformed {
    try {
      return EnvelopeViews.payload(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new Malformed("error unmarshalling Payload: " + e.getMessage());
    }
  }

  static ChannelHeader channelHeader(Payload payload) throws Malformed {
    try {
      return ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
    } catch (InvalidProtocolBufferException e) {
      throw new Malformed("error unmarshalling channel header: " + e.getMessage());
    }
  }

  static SignatureHeader signatureHeader(Payload payload) throws Malformed {
    try {
      return SignatureHeader.parseFrom(payload.getHeader().getSignatureHeader());
    } catch (InvalidProtocolBufferException e) {
      throw new Malformed("error unmarshalling signature header: " + e.getMessage());
    }
  }

  static SeekInfo seekInfo(Payload payload) throws Malformed {
    try {
      return SeekInfo.parseFrom(payload.getData());
    } catch (InvalidProtocolBufferException e) {
      throw new Malformed("malformed seekInfo payload: " + e.getMessage());
    }
  }
}
