package io.rubinbft.net.fragment;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.frame.FrameDescriptor;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Messages of random sizes cut into fragments of random sizes come back byte for byte, also when
 * the sender stages the rest of a message after a random number of fragments and the caller then
 * overwrites its buffer (as a caller may once offer returns); and a fragment whose header was
 * tampered with never makes a wrong message: the tracker refuses it, the message it belonged to is
 * never completed, and the next message arrives intact. Messages go up to twice the size a channel
 * keeps a buffer for between messages: neither side holds more than that once a message is done.
 */
class FragmentationPropertyTest {

  private static final long BASE_SEED = 0xF4A6L;
  private static final int RETAINED = MessageBuffer.RETAINED_BYTES;
  private static final int MAX_MESSAGE = 2 * MessageBuffer.RETAINED_BYTES;

  private final UnsafeBuffer frame = new UnsafeBuffer(new byte[MAX_MESSAGE]);

  /** One fragment's header fields, as a frame would carry them. */
  private record Fragment(byte flags, int messageLength, int offset, int length) {}

  @RepeatedTest(100)
  void fragmentsReassembleToTheSameBytes(RepetitionInfo repetition) {
    long seed = BASE_SEED + repetition.getCurrentRepetition();
    Random random = new Random(seed);
    Receiver receiver = new Receiver();
    OutboundMessage outbound = new OutboundMessage(MAX_MESSAGE);
    for (int m = 0; m < 10; m++) {
      byte[] message = randomMessage(random);
      int maxPayload = 1 + random.nextInt(20_000);
      byte[] callers = new byte[message.length + 16];
      int offset = random.nextInt(16);
      System.arraycopy(message, 0, callers, offset, message.length);
      outbound.begin(new UnsafeBuffer(callers), offset, message.length);
      int sentFromCaller = random.nextInt(message.length / maxPayload + 2);
      for (int f = 0; f < sentFromCaller && outbound.busy(); f++) {
        assertThat(receiver.arrive(next(outbound, maxPayload))).as("seed %d", seed).isTrue();
      }
      outbound.stageRemainder();
      random.nextBytes(callers);
      while (outbound.busy()) {
        Fragment fragment = next(outbound, maxPayload);
        assertThat(receiver.arrive(fragment)).as("seed %d", seed).isTrue();
      }
      assertThat(receiver.completed).as("seed %d message %d", seed, m).isEqualTo(message);
      assertThat(outbound.heldBytes()).as("seed %d", seed).isLessThanOrEqualTo(RETAINED);
      assertThat(receiver.reassembler.heldBytes())
          .as("seed %d", seed)
          .isLessThanOrEqualTo(RETAINED);
    }
  }

  @RepeatedTest(100)
  void aTamperedFragmentNeverMakesAWrongMessage(RepetitionInfo repetition) {
    long seed = BASE_SEED + 10_000 + repetition.getCurrentRepetition();
    Random random = new Random(seed);
    Receiver receiver = new Receiver();
    OutboundMessage outbound = new OutboundMessage(MAX_MESSAGE);
    for (int m = 0; m < 10; m++) {
      byte[] message = randomMessage(random);
      outbound.begin(new UnsafeBuffer(message), 0, message.length);
      int maxPayload = 1 + random.nextInt(Math.max(1, message.length / 2 + 1));
      int fragments = (message.length + maxPayload - 1) / maxPayload;
      int tampered = random.nextInt(Math.max(1, fragments));
      receiver.completed = null;
      for (int f = 0; outbound.busy(); f++) {
        Fragment fragment = next(outbound, maxPayload);
        receiver.arrive(f == tampered ? tamper(fragment, random) : fragment);
      }
      assertThat(receiver.completed).as("seed %d message %d", seed, m).isNull();
      byte[] intact = randomMessage(random);
      outbound.begin(new UnsafeBuffer(intact), 0, intact.length);
      while (outbound.busy()) {
        assertThat(receiver.arrive(next(outbound, maxPayload))).as("seed %d", seed).isTrue();
      }
      assertThat(receiver.completed).as("seed %d after message %d", seed, m).isEqualTo(intact);
    }
  }

  private Fragment next(OutboundMessage outbound, int maxPayload) {
    int chunk = outbound.nextChunk(maxPayload);
    Fragment fragment =
        new Fragment(outbound.flags(chunk), outbound.length(), outbound.sentOffset(), chunk);
    outbound.copyChunk(frame, 0, chunk);
    return fragment;
  }

  private static Fragment tamper(Fragment fragment, Random random) {
    return switch (random.nextInt(5)) {
      case 0 ->
          new Fragment(
              fragment.flags(), fragment.messageLength(), fragment.offset() + 1, fragment.length());
      case 1 ->
          new Fragment(
              fragment.flags(), fragment.messageLength() + 1, fragment.offset(), fragment.length());
      case 2 ->
          new Fragment(
              (byte) (fragment.flags() ^ FrameDescriptor.FLAG_END),
              fragment.messageLength(),
              fragment.offset(),
              fragment.length());
      case 3 ->
          new Fragment(
              fragment.flags(), fragment.messageLength(), fragment.offset(), fragment.length() + 1);
      default ->
          new Fragment(fragment.flags(), MAX_MESSAGE + 1, fragment.offset(), fragment.length());
    };
  }

  private static byte[] randomMessage(Random random) {
    int length = random.nextInt(4) == 0 ? random.nextInt(100) : 1 + random.nextInt(MAX_MESSAGE);
    byte[] message = new byte[length];
    random.nextBytes(message);
    return message;
  }

  /** The receiving side as the channel runs it: tracker on arrival, reassembler on delivery. */
  private final class Receiver {
    final FragmentTracker tracker = new FragmentTracker(MAX_MESSAGE);
    final Reassembler reassembler = new Reassembler(MAX_MESSAGE);
    byte[] completed;

    boolean arrive(Fragment fragment) {
      if (!tracker.accept(
          fragment.flags(), fragment.messageLength(), fragment.offset(), fragment.length())) {
        return false;
      }
      if (reassembler.append(
          frame, 0, fragment.length(), fragment.flags(), fragment.messageLength())) {
        completed = new byte[reassembler.length()];
        reassembler.message().getBytes(0, completed);
        reassembler.consumed();
      }
      return true;
    }
  }
}
