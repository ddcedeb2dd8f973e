package io.rubinbft.net.shm;

import static io.rubinbft.net.shm.QueuePairFileDescriptor.CONNECTION_STATE_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.MAGIC_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.PEER_KEY_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.PEER_QP_FILE_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.QUEUE_PAIR_STATE_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.REASON_LENGTH_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVES_DELIVERED_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVES_POSTED_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVE_DEPTH_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.RECEIVE_SLOTS_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_BYTES;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_BYTE_LENGTH;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_LENGTH;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_OFFSET;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_REGION;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.SLOT_STATUS;
import static io.rubinbft.net.shm.QueuePairFileDescriptor.VERSION_OFFSET;
import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.Channel;
import io.rubinbft.net.ChannelConfig;
import io.rubinbft.net.ChannelState;
import io.rubinbft.net.FuzzedNode;
import io.rubinbft.net.Identity;
import io.rubinbft.net.PeerAuthenticator;
import io.rubinbft.net.Selector;
import io.rubinbft.net.TestIdentities;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzing of the shared-memory words a peer on the same host can write: a byzantine consenter maps
 * the queue pair files of its connection to the node (its own side, which the node reads, and the
 * node's side, whose delivered count and slot completions it writes anyway) and scribbles over
 * their headers, ring counts, slot offsets, regions, lengths and statuses while both sides send.
 * Each input is a script of such writes, played on a fresh connection from a fresh device. The
 * node's selector must throw nothing, close no channel on an error in its own handling, and keep
 * serving a bystander's channel on the same device; the byzantine side may break as it likes.
 */
class ShmRingWordFuzzTest {

  private static final int SLOT_BYTES_RING = 8192;
  private static final int SLOTS = 8;
  private static final int MAX_MESSAGE_BYTES = 64 * 1024;

  /** A script record: which word (see {@link #wordOffset}), then the value, 64 bits. */
  private static final int RECORD = 1 + Long.BYTES;

  /** The header words a peer could write, in the order a record's word byte names them. */
  private static final long[] HEADER_WORDS = {
    RECEIVES_POSTED_OFFSET,
    RECEIVES_DELIVERED_OFFSET,
    QUEUE_PAIR_STATE_OFFSET,
    CONNECTION_STATE_OFFSET,
    MAGIC_OFFSET,
    VERSION_OFFSET,
    RECEIVE_DEPTH_OFFSET,
    REASON_LENGTH_OFFSET,
  };

  private static final long[] SLOT_FIELDS = {
    SLOT_OFFSET, SLOT_REGION, SLOT_LENGTH, SLOT_BYTE_LENGTH, SLOT_STATUS
  };

  /** Fields written as 32-bit words; the others as 64-bit. */
  private static final Set<Long> INT_FIELDS =
      Set.of(SLOT_REGION, SLOT_LENGTH, SLOT_BYTE_LENGTH, SLOT_STATUS);

  @TempDir static Path root;

  private static Identity node;
  private static Identity byzantine;
  private static FuzzedNode fuzzed;

  @BeforeAll
  static void nodeAndBystander() throws IOException {
    node = TestIdentities.create("node");
    byzantine = TestIdentities.create("byzantine");
    fuzzed =
        new FuzzedNode(
            ShmRingWordFuzzTest::transport,
            config(node),
            config(TestIdentities.create("honest")),
            byzantine,
            SLOTS);
  }

  @AfterAll
  static void close() {
    fuzzed.close();
  }

  @Test
  void ringWordsWrittenByAPeerNeverHarmTheNode() {
    List<byte[]> samples =
        List.of(
            script(word(0, 0), 5L),
            script(word(0, 1), 3L),
            script(word(1, 8 + 0), 1L << 40),
            script(word(0, 8 + 2), 100_000L),
            script(word(1, 8 + 3), 1L),
            script(word(1, 8 + 4), 9L),
            script(word(0, 2), 2L),
            script(word(0, 8 + 0), Long.MAX_VALUE),
            script(word(0, 8 + 5), Long.MAX_VALUE - 100),
            script(word(0, 1), Long.MIN_VALUE + 3));
    Fuzzer.of("rdma-net shm ring words", samples)
        .inputs(60)
        .maxRandomBytes(10 * RECORD)
        .run((bytes, random) -> play(bytes));
  }

  /** Returns whether the byzantine channel was still open after the script. */
  private static boolean play(byte[] script) throws Exception {
    Set<Path> before = deviceDirs();
    Selector attacker = Selector.open(transport(), config(byzantine));
    Runnable attackerTurn = () -> turn(attacker);
    try (Arena arena = Arena.ofConfined()) {
      Path attackerDir = only(difference(deviceDirs(), before));
      Channel channel =
          attacker.connect(fuzzed.address(), PeerAuthenticator.pinned(List.of(node.certificate())));
      Channel atNodeSide =
          fuzzed.accept(
              "the byzantine channel open",
              () -> channel.state() == ChannelState.OPEN,
              attackerTurn);
      MemorySegment own = mapOnly(attackerDir, arena);
      long nodeKey = own.get(ValueLayout.JAVA_LONG, PEER_KEY_OFFSET);
      int nodeFile = own.get(ValueLayout.JAVA_INT, PEER_QP_FILE_OFFSET);
      MemorySegment nodes =
          new DeviceDirectory(root)
              .mapExisting(new DeviceDirectory(root).queuePair(nodeKey, nodeFile), arena);
      MemorySegment[] files = {own, nodes};
      ByteBuffer records = ByteBuffer.wrap(script).order(ByteOrder.LITTLE_ENDIAN);
      while (records.remaining() >= RECORD) {
        int word = Byte.toUnsignedInt(records.get());
        long value = records.getLong();
        write(files[word & 1], word >>> 1, value);
        offer(channel);
        offer(atNodeSide);
        fuzzed.turn(attackerTurn);
        fuzzed.turn(attackerTurn);
      }
      // Round the rings twice, so a slot written anywhere is delivered into.
      for (int i = 0; i < 2 * SLOTS + 2; i++) {
        offer(channel);
        offer(atNodeSide);
        fuzzed.turn(attackerTurn);
        fuzzed.turn(attackerTurn);
      }
      for (int i = 0; i < 20; i++) {
        fuzzed.turn(attackerTurn);
      }
      boolean open = atNodeSide.state() == ChannelState.OPEN;
      fuzzed.assertDeliveredWithin(MAX_MESSAGE_BYTES);
      attacker.close();
      fuzzed.assertUnharmedAfter(atNodeSide, () -> {});
      return open;
    } finally {
      attacker.close();
    }
  }

  /** Byte {@code word} of a record: 0-7 a header word, then five fields a slot, round the ring. */
  private static byte word(int file, int index) {
    return (byte) (index << 1 | file);
  }

  private static void write(MemorySegment file, int index, long value) {
    long offset = wordOffset(file, index);
    long field = index < HEADER_WORDS.length ? -1 : SLOT_FIELDS[slotField(index)];
    if (offset == RECEIVE_DEPTH_OFFSET
        || offset == REASON_LENGTH_OFFSET
        || offset == VERSION_OFFSET
        || INT_FIELDS.contains(field)) {
      file.set(ValueLayout.JAVA_INT, offset, (int) value);
    } else {
      file.set(ValueLayout.JAVA_LONG, offset, value);
    }
  }

  private static long wordOffset(MemorySegment file, int index) {
    if (index < HEADER_WORDS.length) {
      return HEADER_WORDS[index];
    }
    int depth = (int) ((file.byteSize() - RECEIVE_SLOTS_OFFSET) / SLOT_BYTES);
    int slot = ((index - HEADER_WORDS.length) / SLOT_FIELDS.length) % depth;
    return RECEIVE_SLOTS_OFFSET + (long) slot * SLOT_BYTES + SLOT_FIELDS[slotField(index)];
  }

  private static int slotField(int index) {
    return (index - HEADER_WORDS.length) % SLOT_FIELDS.length;
  }

  private static void offer(Channel channel) {
    byte[] message = "fuzz".getBytes(StandardCharsets.US_ASCII);
    if (channel.state() == ChannelState.OPEN) {
      channel.offer(new UnsafeBuffer(message), 0, message.length);
    }
  }

  /** A turn of the byzantine side: it corrupted its own rings too, so its failures are its own. */
  private static void turn(Selector attacker) {
    try {
      attacker.selectNow(key -> key.channel().poll((b, o, l) -> {}, SLOTS));
    } catch (IOException | RuntimeException e) {
      // Its own.
    }
  }

  private static VerbsTransport transport() {
    try {
      return VerbsTransport.open(ShmVerbsDevice.open(ShmOptions.defaults(root)), 4096, 256);
    } catch (VerbsException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ChannelConfig config(Identity identity) {
    return new ChannelConfig(identity, SLOTS, SLOTS, SLOT_BYTES_RING, MAX_MESSAGE_BYTES, 16);
  }

  private static Set<Path> deviceDirs() throws IOException {
    try (Stream<Path> paths = Files.list(root)) {
      return paths
          .filter(p -> p.getFileName().toString().startsWith("dev-"))
          .collect(Collectors.toSet());
    }
  }

  private static Set<Path> difference(Set<Path> after, Set<Path> before) {
    Set<Path> added = new HashSet<>(after);
    added.removeAll(before);
    return added;
  }

  private static Path only(Set<Path> paths) {
    assertThat(paths).hasSize(1);
    return paths.iterator().next();
  }

  /** The one queue pair file in a device's folder (its one connection). */
  private static MemorySegment mapOnly(Path deviceDir, Arena arena) throws Exception {
    try (Stream<Path> files = Files.list(deviceDir)) {
      Path file =
          only(
              files
                  .filter(p -> p.getFileName().toString().startsWith("qp-"))
                  .collect(Collectors.toSet()));
      return new DeviceDirectory(root).mapExisting(file, arena);
    }
  }

  private static byte[] script(byte word, long value) {
    return ByteBuffer.allocate(RECORD)
        .order(ByteOrder.LITTLE_ENDIAN)
        .put(word)
        .putLong(value)
        .array();
  }
}
