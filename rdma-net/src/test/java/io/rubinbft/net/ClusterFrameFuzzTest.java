package io.rubinbft.net;

import static io.rubinbft.net.TestIdentities.alice;
import static io.rubinbft.net.TestIdentities.bob;
import static io.rubinbft.net.frame.FrameDescriptor.FLAGS_UNFRAGMENTED;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;
import static io.rubinbft.net.frame.FrameDescriptor.HEADER_LENGTH;
import static io.rubinbft.net.frame.FrameDescriptor.OVERHEAD;
import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.fragment.FragmentTracker;
import io.rubinbft.net.fragment.Reassembler;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.frame.FrameType;
import io.rubinbft.net.security.Handshake;
import io.rubinbft.net.security.HandshakeRejected;
import io.rubinbft.net.security.HelloParameters;
import io.rubinbft.net.security.Role;
import io.rubinbft.net.security.Session;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of what arrives on a cluster link, in the order {@code Connection.onFrame} handles it
 * (README "Fuzzing"): the structural checks, the HELLO (from anyone who can connect), the AUTH and
 * the AES-GCM opening of every later frame (a peer or a man in the middle), and the fragments of a
 * message. Each step either accepts or refuses the way its caller expects (a drop reason, {@link
 * HandshakeRejected}, {@code open} false, {@code accept} false); anything else would close the link
 * through the selector's error path, or worse.
 */
class ClusterFrameFuzzTest {

  private static final String TRANSPORT = "tcp";
  private static final int SLOT_BYTES = 8192;
  private static final int MAX_MESSAGE_BYTES = 1 << 20;
  private static final ChannelConfig LOCAL =
      new ChannelConfig(TestIdentities.create("local"), 32, 32, SLOT_BYTES, MAX_MESSAGE_BYTES, 64);
  private static final HelloParameters PARAMETERS =
      new HelloParameters(32, SLOT_BYTES, MAX_MESSAGE_BYTES);

  /** Parsing a certificate and agreeing keys allocates; a lying length must not add to it. */
  private static final long HANDSHAKE_ALLOCATION = 4 * 1024 * 1024;

  /**
   * The HELLO payload as {@code Connection} hands it over once the frame passed its structural
   * checks (which the sealed-frame target fuzzes): parsed, or refused with {@link
   * HandshakeRejected}, also for limits out of range ({@link PeerLimits}).
   */
  @Test
  void helloPayloadsFromStrangersAreParsedOrRefused() {
    List<byte[]> samples = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      samples.add(writeHello(handshake(alice(), Role.INITIATOR)));
    }
    Fuzzer.of("rdma-net HELLO payload", samples)
        .inputs(1_000)
        .maxRandomBytes(SLOT_BYTES - OVERHEAD)
        .allocationLimit(HANDSHAKE_ALLOCATION, 64)
        .run(
            (bytes, random) -> {
              Handshake acceptor = handshake(bob(), Role.ACCEPTOR);
              writeHello(acceptor);
              try {
                Session session = acceptor.acceptHello(new UnsafeBuffer(bytes), 0, bytes.length);
                PeerLimits.check(session.peerParameters(), LOCAL);
                return true;
              } catch (HandshakeRejected e) {
                return false;
              }
            });
  }

  @Test
  void authPayloadsVerifyOnlyUntouchedOrAreRefused() throws HandshakeRejected {
    Handshake initiator = handshake(alice(), Role.INITIATOR);
    Handshake acceptor = handshake(bob(), Role.ACCEPTOR);
    exchangeHellos(initiator, acceptor);
    UnsafeBuffer auth = new UnsafeBuffer(new byte[SLOT_BYTES]);
    byte[] signature = Arrays.copyOf(auth.byteArray(), initiator.writeAuth(auth, 0, SLOT_BYTES));
    Fuzzer.of("rdma-net AUTH payload", List.of(signature))
        .inputs(1_000)
        .allocationLimit(HANDSHAKE_ALLOCATION, 64)
        .run(
            (bytes, random) -> {
              try {
                acceptor.acceptAuth(new UnsafeBuffer(bytes), 0, bytes.length);
              } catch (HandshakeRejected e) {
                return false;
              }
              assertThat(bytes).as("a signature that verifies").isEqualTo(signature);
              return true;
            });
  }

  /** Bad tags are a clean refusal: false, the frame left as it came, the cipher still usable. */
  @Test
  void sealedFramesOpenOnlyUntouched() throws HandshakeRejected {
    Handshake initiator = handshake(alice(), Role.INITIATOR);
    Handshake acceptor = handshake(bob(), Role.ACCEPTOR);
    Session[] sessions = exchangeHellos(initiator, acceptor);
    Session sender = sessions[0];
    Session receiver = sessions[1];
    List<byte[]> samples = new ArrayList<>();
    long sequence = 1;
    for (int payload : new int[] {0, 1, 100, SLOT_BYTES - OVERHEAD}) {
      samples.add(sealed(sender, payload, sequence++));
    }
    Fuzzer.of("rdma-net AES-GCM frame opening", samples)
        .inputs(5_000)
        .maxRandomBytes(SLOT_BYTES)
        .allocationLimit(64 * 1024, 8)
        .run(
            (bytes, random) -> {
              FrameFlyweight frame = frame(bytes.clone());
              if (FrameChecks.invalidReason(frame, bytes.length, SLOT_BYTES).isPresent()) {
                return false;
              }
              boolean opened = receiver.receiveCipher().open(frame, bytes.length);
              if (opened) {
                assertThat(samples)
                    .as("an input that opens")
                    .anyMatch(s -> Arrays.equals(s, bytes));
              } else {
                assertThat(frame.byteArray()).as("a refused frame").isEqualTo(bytes);
                byte[] pristine = samples.get(random.nextInt(samples.size())).clone();
                assertThat(receiver.receiveCipher().open(frame(pristine), pristine.length))
                    .as("the cipher after a refusal")
                    .isTrue();
              }
              return opened;
            });
  }

  /**
   * A run of DATA frame headers through the fragment checks and, for what they let through,
   * reassembly, as {@code Connection} does: refused fragments are dropped, nothing throws, and no
   * message is longer than the limit.
   */
  @Test
  void fragmentRunsReassembleOrAreDropped() {
    List<byte[]> samples = List.of(fragmentRun(1, 100), fragmentRun(3, 5000), fragmentRun(2, 0));
    Fuzzer.of("rdma-net DATA fragments", samples)
        .inputs(5_000)
        .run(
            (bytes, random) -> {
              FragmentTracker tracker = new FragmentTracker(MAX_MESSAGE_BYTES);
              Reassembler reassembler = new Reassembler(MAX_MESSAGE_BYTES);
              ByteBuffer headers = ByteBuffer.wrap(bytes);
              UnsafeBuffer payload = new UnsafeBuffer(new byte[SLOT_BYTES]);
              boolean delivered = false;
              while (headers.remaining() >= FRAGMENT_HEADER) {
                byte flags = headers.get();
                int messageLength = headers.getInt();
                int fragmentOffset = headers.getInt();
                int payloadLength = Math.floorMod(headers.getInt(), SLOT_BYTES - OVERHEAD + 1);
                if (!tracker.accept(flags, messageLength, fragmentOffset, payloadLength)) {
                  continue;
                }
                if ((flags & FLAGS_UNFRAGMENTED) == FLAGS_UNFRAGMENTED) {
                  delivered = true;
                } else if (reassembler.append(payload, 0, payloadLength, flags, messageLength)) {
                  assertThat(reassembler.length()).isLessThanOrEqualTo(MAX_MESSAGE_BYTES);
                  reassembler.consumed();
                  delivered = true;
                }
              }
              reassembler.discardPartial();
              return delivered;
            });
  }

  /** Flags, message length, fragment offset, payload length. */
  private static final int FRAGMENT_HEADER = 1 + 3 * Integer.BYTES;

  /** A message of {@code length} bytes in {@code fragments} fragments, as a run of headers. */
  private static byte[] fragmentRun(int fragments, int length) {
    ByteBuffer run = ByteBuffer.allocate(fragments * FRAGMENT_HEADER);
    int offset = 0;
    for (int i = 0; i < fragments; i++) {
      int size = i == fragments - 1 ? length - offset : length / fragments;
      byte flags = (byte) ((i == 0 ? FLAG_BEGIN : 0) | (i == fragments - 1 ? FLAG_END : 0));
      run.put(flags).putInt(length).putInt(offset).putInt(size);
      offset += size;
    }
    return run.array();
  }

  private static Handshake handshake(Identity self, Role role) {
    Identity expected = self == alice() ? bob() : alice();
    return new Handshake(
        self,
        role,
        PeerAuthenticator.pinned(List.of(expected.certificate())),
        new SecureRandom(),
        TRANSPORT);
  }

  private static byte[] writeHello(Handshake handshake) {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[SLOT_BYTES]);
    int length = handshake.writeHello(buffer, 0, SLOT_BYTES - OVERHEAD, PARAMETERS);
    return Arrays.copyOf(buffer.byteArray(), length);
  }

  /** The initiator's session and the acceptor's, after each accepted the other's HELLO. */
  private static Session[] exchangeHellos(Handshake initiator, Handshake acceptor)
      throws HandshakeRejected {
    byte[] fromInitiator = writeHello(initiator);
    byte[] fromAcceptor = writeHello(acceptor);
    Session atInitiator =
        initiator.acceptHello(new UnsafeBuffer(fromAcceptor), 0, fromAcceptor.length);
    Session atAcceptor =
        acceptor.acceptHello(new UnsafeBuffer(fromInitiator), 0, fromInitiator.length);
    return new Session[] {atInitiator, atAcceptor};
  }

  /** A DATA frame with {@code payload} bytes, sealed by {@code sender}. */
  private static byte[] sealed(Session sender, int payload, long sequence) {
    int length = payload + OVERHEAD;
    FrameFlyweight frame = frame(new byte[length]);
    frame.writeHeader(length, FrameType.DATA, FLAGS_UNFRAGMENTED, payload, 0, sequence, 7);
    for (int i = 0; i < payload; i++) {
      frame.putByte(HEADER_LENGTH + i, (byte) i);
    }
    sender.sendCipher().seal(frame, length);
    return frame.byteArray();
  }

  private static FrameFlyweight frame(byte[] bytes) {
    FrameFlyweight frame = new FrameFlyweight();
    frame.wrap(bytes);
    return frame;
  }
}
