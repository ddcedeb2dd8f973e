package io.rubinbft.bft.wire;

import io.rubinbft.bft.Digest;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads what {@link WireWriter} writes from a range of untrusted bytes. Every read names the field
 * it reads, so a failure says where and what ("truncated at offset 812 reading Commit.signature").
 * Every length is checked against the bytes that remain and against its limit before anything is
 * allocated.
 */
final class WireReader {

  /** SHA-512 is the longest digest {@link Digest} accepts. */
  static final int MAX_DIGEST_BYTES = 64;

  private final byte[] bytes;
  private final int start;
  private final int end;
  private int position;
  private @Nullable CharsetDecoder utf8;

  WireReader(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    this.bytes = bytes;
    this.start = offset;
    this.end = offset + length;
    this.position = offset;
  }

  /** Offset from the start of the range, as reasons report it. */
  int offset() {
    return position - start;
  }

  int remaining() {
    return end - position;
  }

  InvalidWireBytes invalid(String reason) {
    return new InvalidWireBytes(reason);
  }

  int unsignedByte(String field) {
    require(1, field);
    return bytes[position++] & 0xFF;
  }

  boolean booleanValue(String field) {
    int at = offset();
    int value = unsignedByte(field);
    if (value > 1) {
      throw invalid(field + " at offset " + at + " is " + value + " but must be 0 or 1");
    }
    return value == 1;
  }

  int intValue(String field) {
    require(Integer.BYTES, field);
    int value = 0;
    for (int i = 0; i < Integer.BYTES; i++) {
      value = (value << 8) | (bytes[position++] & 0xFF);
    }
    return value;
  }

  long longValue(String field) {
    require(Long.BYTES, field);
    long value = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      value = (value << 8) | (bytes[position++] & 0xFF);
    }
    return value;
  }

  /** A u32 length at most {@code limit}, then that many bytes. */
  byte[] bytes(String field, int limit) {
    int length = length(field, limit);
    byte[] value = new byte[length];
    System.arraycopy(bytes, position, value, 0, length);
    position += length;
    return value;
  }

  Digest digest(String field) {
    int at = offset();
    byte[] value = bytes(field, MAX_DIGEST_BYTES);
    if (value.length == 0) {
      throw invalid(field + " at offset " + at + " is empty but a digest has 1 to 64 bytes");
    }
    return new Digest(value);
  }

  /** Strict UTF-8: malformed input is rejected rather than replaced, so encoding is canonical. */
  String string(String field, int limit) {
    int at = offset();
    int length = length(field, limit);
    if (utf8 == null) {
      utf8 =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    try {
      String value = utf8.decode(ByteBuffer.wrap(bytes, position, length)).toString();
      position += length;
      return value;
    } catch (CharacterCodingException e) {
      throw invalid(field + " at offset " + at + " is not valid UTF-8");
    }
  }

  /**
   * A u32 element count at most {@code limit}. Every element takes at least one byte, so a count
   * above the remaining bytes is a lie and is rejected before any list is sized by it.
   */
  int count(String field, int limit) {
    int at = offset();
    long count = Integer.toUnsignedLong(intValue(field));
    if (count > limit) {
      throw invalid(field + ": count " + count + " exceeds the limit " + limit);
    }
    if (count > remaining()) {
      throw invalid(
          field
              + ": count "
              + count
              + " at offset "
              + at
              + " but only "
              + remaining()
              + " bytes follow");
    }
    return (int) count;
  }

  /** A replica id in [0, replicas). */
  int replica(String field, int replicas) {
    int at = offset();
    int replica = intValue(field);
    if (replica < 0 || replica >= replicas) {
      throw invalid(
          field
              + " at offset "
              + at
              + " is "
              + replica
              + " but replicas are 0 to "
              + (replicas - 1));
    }
    return replica;
  }

  /** Nothing may follow the value: trailing bytes would make two encodings of one message. */
  void requireEnd(String what) {
    if (position != end) {
      throw invalid(remaining() + " trailing bytes after " + what + " at offset " + offset());
    }
  }

  private int length(String field, int limit) {
    int at = offset();
    long length = Integer.toUnsignedLong(intValue(field));
    if (length > limit) {
      throw invalid(field + ": length " + length + " exceeds the limit " + limit);
    }
    if (length > remaining()) {
      throw invalid(
          "truncated at offset "
              + at
              + " reading "
              + field
              + ": length "
              + length
              + " but only "
              + remaining()
              + " bytes follow");
    }
    return (int) length;
  }

  private void require(int size, String field) {
    if (remaining() < size) {
      throw invalid("truncated at offset " + offset() + " reading " + field);
    }
  }
}
