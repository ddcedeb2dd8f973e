package io.rubinbft.bft.wire;

import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * One message or WAL record type under test: how to generate a value of it from a seed and how its
 * codec encodes and decodes, so one set of properties covers both codecs.
 */
record Subject(
    String name,
    LongFunction<Object> generate,
    Function<Object, byte[]> encode,
    RangeDecoder decode) {

  /** A codec's {@code decode(bytes, offset, length)}. */
  interface RangeDecoder {
    Decoded<?> decode(byte[] bytes, int offset, int length);
  }

  /** Every message type and every WAL record type, coded with {@code limits}. */
  static List<Subject> all(WireLimits limits) {
    MessageCodec messages = new MessageCodec(limits);
    WalRecordCodec records = new WalRecordCodec(limits);
    List<Subject> subjects = new ArrayList<>();
    for (RandomWire.Kind<Message> kind : RandomWire.messageKinds()) {
      subjects.add(
          new Subject(
              kind.name(),
              seed -> kind.generate(seed, limits),
              value -> messages.encode((Message) value),
              messages::decode));
    }
    for (RandomWire.Kind<WalRecord> kind : RandomWire.recordKinds()) {
      subjects.add(
          new Subject(
              "WalRecord." + kind.name(),
              seed -> kind.generate(seed, limits),
              value -> records.encode((WalRecord) value),
              records::decode));
    }
    return subjects;
  }

  Decoded<?> decode(byte[] bytes) {
    return decode.decode(bytes, 0, bytes.length);
  }

  @Override
  public String toString() {
    return name;
  }
}
