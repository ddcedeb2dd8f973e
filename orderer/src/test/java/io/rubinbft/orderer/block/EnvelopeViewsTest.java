package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Random;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Header;
import org.hyperledger.fabric.protos.common.Payload;
import org.junit.jupiter.api.Test;

class EnvelopeViewsTest {

  /** Property: on random envelopes, the views read what protobuf's own parsing reads. */
  @Test
  void viewsParseWhatCopiesParse() throws InvalidProtocolBufferException {
    long seed = new Random().nextLong();
    System.out.println("EnvelopeViewsTest seed " + seed);
    Random random = new Random(seed);
    for (int run = 0; run < 200; run++) {
      ByteString bytes = randomEnvelope(random).toByteString();

      Envelope viewed = EnvelopeViews.envelope(bytes);
      Payload viewedPayload = EnvelopeViews.payload(viewed.getPayload());

      Envelope copied = Envelope.parseFrom(bytes);
      assertThat(viewed).as("seed %d run %d", seed, run).isEqualTo(copied);
      assertThat(viewedPayload)
          .as("seed %d run %d", seed, run)
          .isEqualTo(Payload.parseFrom(copied.getPayload()));
    }
  }

  @Test
  void malformedBytesFailAsProtobufsOwnParsingFails() {
    ByteString truncated = randomEnvelope(new Random(1)).toByteString().substring(0, 20);

    assertThatThrownBy(() -> EnvelopeViews.envelope(truncated))
        .isInstanceOf(InvalidProtocolBufferException.class)
        .hasMessage(messageOf(() -> Envelope.parseFrom(truncated)));
  }

  @Test
  void aStrayEndGroupTagIsRefusedAsParseFromRefusesIt() {
    // Field 1 with wire type 4 (end group): parsing stops there, which is not the end of input.
    ByteString endGroup = ByteString.copyFrom(new byte[] {0x0c});

    assertThatThrownBy(() -> EnvelopeViews.payload(endGroup))
        .isInstanceOf(InvalidProtocolBufferException.class)
        .hasMessage(messageOf(() -> Payload.parseFrom(endGroup)));
  }

  private interface Parse {
    Object run() throws InvalidProtocolBufferException;
  }

  private static String messageOf(Parse parse) {
    try {
      Object parsed = parse.run();
      throw new AssertionError("protobuf's own parsing accepted it: " + parsed);
    } catch (InvalidProtocolBufferException e) {
      return e.getMessage();
    }
  }

  private static Envelope randomEnvelope(Random random) {
    ChannelHeader channelHeader =
        ChannelHeader.newBuilder()
            .setType(random.nextInt(8))
            .setChannelId("channel" + random.nextInt(10))
            .setTxId(Long.toHexString(random.nextLong()))
            .build();
    Payload payload =
        Payload.newBuilder()
            .setHeader(
                Header.newBuilder()
                    .setChannelHeader(channelHeader.toByteString())
                    .setSignatureHeader(bytes(random, random.nextInt(1200))))
            .setData(bytes(random, random.nextInt(5000)))
            .build();
    return Envelope.newBuilder()
        .setPayload(payload.toByteString())
        .setSignature(bytes(random, random.nextInt(80)))
        .build();
  }

  private static ByteString bytes(Random random, int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return ByteString.copyFrom(bytes);
  }
}
