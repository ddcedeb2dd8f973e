package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Status;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bytes a Byzantine peer could send: each is rejected with the reason a log line should give. */
class HostileInputTest {

  /** Version, type, view, sequence, digest (length and 32 bytes). */
  private static final int AFTER_VOTE_DIGEST = 2 + 8 + 8 + 4 + 32;

  /** ... then the proposal's sequence and previous digest. */
  private static final int PROPOSAL_REQUEST_COUNT = AFTER_VOTE_DIGEST + 8 + 4 + 32;

  private final MessageCodec codec = new MessageCodec(TestLimits.LIMITS);

  /** Limits so generous that only the bytes actually present can stop a lying length. */
  private final MessageCodec generous =
      new MessageCodec(
          new WireLimits(
              4, Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, 0, 1 << 30, 8, 1 << 20));

  @Test
  void aRequestCountAboveTheLimitIsRejectedBeforeReadingRequests() {
    byte[] bytes = codec.encode(prePrepare(List.of()));
    putInt(bytes, PROPOSAL_REQUEST_COUNT, 70_000);

    assertThat(reason(codec, bytes))
        .isEqualTo("Proposal.requests: count 70000 exceeds the limit 5");
  }

  @Test
  void aSignatureLengthAboveTheLimitIsRejected() {
    byte[] bytes = codec.encode(commit(0));
    putInt(bytes, AFTER_VOTE_DIGEST + 4, Integer.MAX_VALUE);

    assertThat(reason(codec, bytes))
        .isEqualTo("Commit.signature: length 2147483647 exceeds the limit 80");
  }

  @Test
  void aLengthBeyondTheBytesPresentAllocatesNothingForIt() {
    byte[] bytes = codec.encode(commit(0));
    putInt(bytes, AFTER_VOTE_DIGEST + 4, 1 << 30);
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    generous.decode(bytes);

    long before = threads.getCurrentThreadAllocatedBytes();
    Decoded<Message> decoded = generous.decode(bytes);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;

    assertThat(decoded)
        .isEqualTo(
            new Decoded.Invalid<>(
                "truncated at offset 58 reading Commit.signature: length 1073741824 but only 8"
                    + " bytes follow"));
    assertThat(allocated).isLessThan(64 * 1024);
  }

  @Test
  void aCountBeyondTheBytesPresentIsRejected() {
    byte[] bytes = generous.encode(prePrepare(List.of()));
    putInt(bytes, PROPOSAL_REQUEST_COUNT, 1 << 28);

    assertThat(reason(generous, bytes))
        .isEqualTo(
            "Proposal.requests: count 268435456 at offset "
                + PROPOSAL_REQUEST_COUNT
                + " but only 20 bytes follow");
  }

  @Test
  void aTruncatedFieldIsNamedWithItsOffset() {
    byte[] bytes = Arrays.copyOf(codec.encode(commit(0)), AFTER_VOTE_DIGEST + 6);

    assertThat(reason(codec, bytes)).isEqualTo("truncated at offset 58 reading Commit.signature");
  }

  @Test
  void anotherFormatVersionIsRejected() {
    byte[] bytes = codec.encode(commit(0));
    bytes[0] = 1;

    assertThat(reason(codec, bytes)).isEqualTo("message format version 1 but this replica reads 4");
  }

  @Test
  void anUnknownTypeIsRejected() {
    byte[] bytes = codec.encode(commit(0));
    bytes[1] = 99;

    assertThat(reason(codec, bytes)).isEqualTo("unknown message type 99");
  }

  @Test
  void trailingBytesAreRejected() {
    byte[] valid = codec.encode(commit(0));
    byte[] bytes = Arrays.copyOf(valid, valid.length + 1);

    assertThat(reason(codec, bytes))
        .isEqualTo("1 trailing bytes after the message at offset " + valid.length);
  }

  @Test
  void aSenderOutsideTheClusterIsRejected() {
    byte[] bytes = codec.encode(commit(0));
    putInt(bytes, AFTER_VOTE_DIGEST, 4);

    assertThat(reason(codec, bytes))
        .isEqualTo("Commit.sender at offset 54 is 4 but replicas are 0 to 3");
  }

  @Test
  void aBooleanOtherThanZeroOrOneIsRejected() {
    byte[] bytes = codec.encode(new Status(3, true, 9, 1));
    bytes[10] = 2;

    assertThat(reason(codec, bytes))
        .isEqualTo("Status.viewInstalled at offset 10 is 2 but must be 0 or 1");
  }

  @Test
  void anEmptyDigestIsRejected() {
    byte[] bytes = new byte[2 + 8 + 8 + 4];
    bytes[0] = MessageCodec.VERSION;
    bytes[1] = 3;

    assertThat(reason(codec, bytes))
        .isEqualTo("Commit.digest at offset 18 is empty but a digest has 1 to 64 bytes");
  }

  @Test
  void malformedUtf8InARequestIdIsRejected() {
    byte[] bytes =
        codec.encode(prePrepare(List.of(new Request(new RequestId("c", "k"), new byte[1]))));
    int client = PROPOSAL_REQUEST_COUNT + 4 + 4;
    bytes[client] = (byte) 0xC0;

    assertThat(reason(codec, bytes))
        .isEqualTo("Request.client at offset " + (client - 4) + " is not valid UTF-8");
  }

  @Test
  void aProposalBeforeSequenceOneIsRejected() {
    byte[] bytes = codec.encode(prePrepare(List.of()));
    putInt(bytes, AFTER_VOTE_DIGEST + 4, 0);

    assertThat(reason(codec, bytes))
        .isEqualTo("Proposal.sequence at offset 54 is 0 but must be >= 1");
  }

  @Test
  void aRequestAboveTheLimitIsRejected() {
    Request large = new Request(new RequestId("c".repeat(30), "k".repeat(30)), new byte[30]);
    byte[] bytes = generous.encode(prePrepare(List.of(large)));

    assertThat(reason(codec, bytes))
        .isEqualTo("Request at offset 102 has 90 bytes but the limit is 64");
  }

  @Test
  void aBatchAboveTheLimitIsRejected() {
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      requests.add(new Request(new RequestId("c", "k" + i), new byte[48]));
    }
    byte[] bytes = generous.encode(prePrepare(requests));

    assertThat(reason(codec, bytes))
        .isEqualTo("Proposal.requests: 204 bytes in the first 4 requests exceed the limit 200");
  }

  @Test
  void aMessageAboveTheSizeLimitIsRejectedUnread() {
    int limit = TestLimits.LIMITS.maxMessageBytes();

    assertThat(reason(codec, new byte[limit + 1]))
        .isEqualTo("message of " + (limit + 1) + " bytes exceeds the limit " + limit);
  }

  @Test
  void encodingAMessagePeersWouldDropFailsLoudly() {
    MessageCodec tight = new MessageCodec(TestLimits.LIMITS.withMaxMessageBytes(40));

    assertThatThrownBy(() -> tight.encode(commit(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("message of 70 bytes exceeds the limit 40: peers would drop it");
  }

  @Test
  void encodingIntoABufferTooSmallFailsLoudly() {
    assertThatThrownBy(() -> codec.encode(commit(0), new byte[70], 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("70 bytes do not fit a buffer of 70 at offset 10");
  }

  private static String reason(MessageCodec codec, byte[] bytes) {
    Decoded<Message> decoded = codec.decode(bytes);
    assertThat(decoded).isInstanceOf(Decoded.Invalid.class);
    return ((Decoded.Invalid<Message>) decoded).reason();
  }

  private static Commit commit(int sender) {
    return new Commit(7, 8, digest(), sender, new byte[8]);
  }

  private static PrePrepare prePrepare(List<Request> requests) {
    Proposal proposal = new Proposal(8, digest(), requests, new byte[0]);
    return new PrePrepare(7, 8, digest(), proposal, 3, new byte[8]);
  }

  private static Digest digest() {
    return new Digest(new byte[32]);
  }

  private static void putInt(byte[] bytes, int offset, int value) {
    for (int i = 0; i < Integer.BYTES; i++) {
      bytes[offset + i] = (byte) (value >>> (24 - 8 * i));
    }
  }
}
