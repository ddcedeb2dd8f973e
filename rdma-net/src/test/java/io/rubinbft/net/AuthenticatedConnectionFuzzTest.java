package io.rubinbft.net;

import static io.rubinbft.net.frame.FrameDescriptor.FLAGS_UNFRAGMENTED;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BEGIN;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_BLOCKED;
import static io.rubinbft.net.frame.FrameDescriptor.FLAG_END;
import static io.rubinbft.net.frame.FrameDescriptor.OVERHEAD;

import io.rubinbft.net.frame.FrameDescriptor;
import io.rubinbft.net.frame.FrameFlyweight;
import io.rubinbft.net.frame.FrameType;
import io.rubinbft.net.tcp.TcpTransport;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of a whole authenticated channel from the side of a consenter that holds real keys: each
 * input is a script of frames that a {@link RawPeer} puts on a real tcp link to a real {@link
 * Selector}, after a real handshake. A frame may be sealed with the session's key over its mutated
 * header and payload (a tag that verifies, as only a peer with the keys can make), have its
 * sequence number, credit and length set right so the mutation reaches the checks behind them, or
 * go out exactly as mutated. Whatever the script, the node under test must: throw nothing out of
 * {@code select} or {@code poll}, close no channel on an error in its own handling ({@link
 * SelectorStats#linksFailedOnError}), deliver no message above its limit, allocate within a bound,
 * and keep serving another peer's channel on the same selector.
 */
class AuthenticatedConnectionFuzzTest {

  private static final int SLOT_BYTES = 8192;
  private static final int SLOTS = 16;
  private static final int MAX_MESSAGE_BYTES = 64 * 1024;
  private static final int MAX_PAYLOAD = FrameDescriptor.maxPayload(SLOT_BYTES);

  /** A script record: mode byte, frame length (16 bits, little-endian), the frame. */
  private static final int RECORD_HEADER = 3;

  private static final int SEAL = 1;
  private static final int SET_SEQUENCE = 2;
  private static final int SET_CREDIT = 4;
  private static final int SET_LENGTH = 8;
  private static final int HONEST = SEAL | SET_SEQUENCE | SET_CREDIT | SET_LENGTH;

  /**
   * Two handshakes (certificates parsed, keys agreed, signatures made and checked), one reassembly
   * buffer and the bystander's messages: what an input costs whatever it says.
   */
  private static final long FIXED_ALLOCATION = 8L * 1024 * 1024 + 2L * MAX_MESSAGE_BYTES;

  private static Identity node;
  private static Identity byzantine;
  private static FuzzedNode fuzzed;
  private static TcpTransport attacker;

  @BeforeAll
  static void cluster() throws IOException {
    node = TestIdentities.create("node");
    byzantine = TestIdentities.create("byzantine");
    fuzzed =
        new FuzzedNode(
            TcpTransport::open,
            config(node),
            config(TestIdentities.create("honest")),
            byzantine,
            SLOTS);
    attacker = TcpTransport.open();
  }

  private static ChannelConfig config(Identity identity) {
    return new ChannelConfig(identity, SLOTS, SLOTS, SLOT_BYTES, MAX_MESSAGE_BYTES, 16);
  }

  @AfterAll
  static void close() {
    fuzzed.close();
    attacker.close();
  }

  @Test
  void framesOfAnAuthenticatedPeerAreTakenOrRefusedWithoutHarmToOthers() {
    List<byte[]> samples =
        List.of(
            script(
                record(HONEST, frame(FrameType.DATA, FLAGS_UNFRAGMENTED, 100, 0, 100)),
                record(HONEST, frame(FrameType.DATA, FLAGS_UNFRAGMENTED, 0, 0, 0)),
                record(HONEST, frame(FrameType.CREDIT, FLAGS_UNFRAGMENTED, 0, 0, 0))),
            script(
                record(HONEST, frame(FrameType.DATA, FLAG_BEGIN, 20_000, 0, MAX_PAYLOAD)),
                record(HONEST, frame(FrameType.DATA, (byte) 0, 20_000, MAX_PAYLOAD, MAX_PAYLOAD)),
                record(
                    HONEST,
                    frame(
                        FrameType.DATA,
                        FLAG_END,
                        20_000,
                        2 * MAX_PAYLOAD,
                        20_000 - 2 * MAX_PAYLOAD))),
            script(
                record(
                    HONEST,
                    frame(FrameType.CREDIT, (byte) (FLAGS_UNFRAGMENTED | FLAG_BLOCKED), 0, 0, 0)),
                record(HONEST, frame(FrameType.DATA, FLAGS_UNFRAGMENTED, 7, 0, 7)),
                record(HONEST, frame(FrameType.CLOSE, FLAGS_UNFRAGMENTED, 0, 0, 0))),
            script(repeated(SLOTS + 4, frame(FrameType.DATA, FLAGS_UNFRAGMENTED, 10, 0, 10))),
            script(
                record(HONEST, frame(FrameType.AUTH, FLAGS_UNFRAGMENTED, 64, 0, 64)),
                record(HONEST, frame(FrameType.HELLO, FLAGS_UNFRAGMENTED, 64, 0, 64)),
                record(SEAL, frame(FrameType.DATA, FLAGS_UNFRAGMENTED, 5, 0, 5))));
    Fuzzer.of("rdma-net authenticated connection", samples)
        .inputs(120)
        .maxRandomBytes(2048)
        .allocationLimit(FIXED_ALLOCATION, 64)
        .run((bytes, random) -> play(bytes));
  }

  /** Returns whether the channel was still open after the script. */
  private static boolean play(byte[] script) throws IOException {
    RawPeer peer = RawPeer.connect(attacker, fuzzed.address(), byzantine, node, SLOTS);
    Runnable peerTurn = peer::poll;
    try {
      Channel channel =
          fuzzed.accept("the byzantine peer authenticated", peer::authenticated, peerTurn);
      ByteBuffer records = ByteBuffer.wrap(script).order(ByteOrder.LITTLE_ENDIAN);
      while (records.remaining() >= RECORD_HEADER && !peer.broken()) {
        int mode = records.get();
        int length = Math.min(Short.toUnsignedInt(records.getShort()), records.remaining());
        byte[] frame = new byte[length];
        records.get(frame);
        sendFrame(peer, mode, frame);
        fuzzed.turn(peerTurn);
      }
      for (int i = 0; i < 50; i++) {
        fuzzed.turn(peerTurn);
      }
      boolean open = channel.state() == ChannelState.OPEN;
      fuzzed.assertDeliveredWithin(MAX_MESSAGE_BYTES);
      peer.close();
      fuzzed.assertUnharmedAfter(channel, peerTurn);
      return open;
    } finally {
      peer.close();
    }
  }

  private static void sendFrame(RawPeer peer, int mode, byte[] script) {
    int length = Math.min(script.length, SLOT_BYTES);
    byte[] frame = Arrays.copyOf(script, Math.max(length, FrameDescriptor.HEADER_LENGTH));
    UnsafeBuffer header = new UnsafeBuffer(frame);
    if ((mode & SET_LENGTH) != 0) {
      header.putInt(FrameDescriptor.LENGTH_OFFSET, length);
    }
    if ((mode & SET_SEQUENCE) != 0) {
      header.putLong(FrameDescriptor.SEQUENCE_OFFSET, peer.nextSequence());
    }
    if ((mode & SET_CREDIT) != 0) {
      header.putLong(FrameDescriptor.CREDIT_OFFSET, peer.credit());
    }
    boolean seal = (mode & SEAL) != 0 && length >= OVERHEAD;
    for (int attempt = 0; attempt < 100 && !peer.broken(); attempt++) {
      if (peer.send(frame, length, seal)) {
        return;
      }
      fuzzed.turn(peer::poll);
    }
  }

  // ---- the samples ----

  private static byte[] frame(
      FrameType type, byte flags, int messageLength, int fragmentOffset, int payload) {
    int length = payload + OVERHEAD;
    FrameFlyweight frame = new FrameFlyweight();
    frame.wrap(new byte[length]);
    frame.writeHeader(length, type, flags, messageLength, fragmentOffset, 0, 0);
    for (int i = 0; i < payload; i++) {
      frame.putByte(FrameDescriptor.HEADER_LENGTH + i, (byte) (i * 13));
    }
    return frame.byteArray();
  }

  private static byte[] record(int mode, byte[] frame) {
    ByteBuffer record =
        ByteBuffer.allocate(RECORD_HEADER + frame.length).order(ByteOrder.LITTLE_ENDIAN);
    record.put((byte) mode).putShort((short) frame.length).put(frame);
    return record.array();
  }

  private static byte[][] repeated(int count, byte[] frame) {
    byte[][] records = new byte[count][];
    Arrays.fill(records, record(HONEST, frame));
    return records;
  }

  private static byte[] script(byte[]... records) {
    ByteArrayOutputStream script = new ByteArrayOutputStream();
    for (byte[] record : records) {
      script.writeBytes(record);
    }
    return script.toByteArray();
  }
}
