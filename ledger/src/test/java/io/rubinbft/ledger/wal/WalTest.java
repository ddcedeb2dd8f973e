package io.rubinbft.ledger.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalTest {

  private static final int MAX_RECORD = 1000;
  private static final long SEGMENT = 4096;

  @TempDir Path dir;

  @Test
  void recordsComeBackInOrderAcrossSegmentsAndReopening() {
    try (Wal wal = open()) {
      assertThat(wal.tornTail()).isEmpty();
      for (int i = 0; i < 40; i++) {
        assertThat(wal.append(payload(i, 200))).isEqualTo(i);
      }
      wal.sync();
    }
    assertThat(segments()).hasSizeGreaterThan(2);
    try (Wal wal = open()) {
      assertThat(wal.tornTail()).isEmpty();
      assertThat(wal.firstIndex()).isZero();
      assertThat(wal.nextIndex()).isEqualTo(40);
      assertThat(wal.append(payload(40, 10))).isEqualTo(40);
      List<Long> seen = new ArrayList<>();
      wal.replay(
          5,
          (index, bytes) -> {
            assertThat(bytes).isEqualTo(payload(index, index == 40 ? 10 : 200));
            seen.add(index);
          });
      assertThat(seen).hasSize(36).startsWith(5L).endsWith(40L);
    }
  }

  @Test
  void truncationDropsOnlyWholeSegmentsBelowTheMark() {
    try (Wal wal = open()) {
      for (int i = 0; i < 40; i++) {
        wal.append(payload(i, 200));
      }
      wal.truncateBefore(25);
      long first = wal.firstIndex();
      assertThat(first).isLessThanOrEqualTo(25).isGreaterThan(0);
      List<Long> seen = new ArrayList<>();
      wal.replay(0, (index, bytes) -> seen.add(index));
      assertThat(seen.getFirst()).isEqualTo(first);
      assertThat(seen.getLast()).isEqualTo(39);
      wal.truncateBefore(Long.MAX_VALUE);
      assertThat(wal.nextIndex()).isEqualTo(40);
      assertThat(wal.firstIndex()).isGreaterThan(first);
    }
    try (Wal wal = open()) {
      assertThat(wal.nextIndex()).isEqualTo(40);
    }
  }

  @Test
  void aTornLastRecordIsCutOffAndReported() throws IOException {
    long validBytes;
    try (Wal wal = open()) {
      for (int i = 0; i < 3; i++) {
        wal.append(payload(i, 100));
      }
      validBytes = Files.size(segments().getLast());
    }
    Path last = segments().getLast();
    appendBytes(last, ByteBuffer.allocate(108).putInt(500).putInt(1234).array());
    try (Wal wal = open()) {
      TornTail torn = wal.tornTail().orElseThrow();
      assertThat(torn.file()).isEqualTo(last);
      assertThat(torn.offset()).isEqualTo(validBytes);
      assertThat(torn.bytesCut()).isEqualTo(108);
      assertThat(torn.reason()).isEqualTo("a record of 500 bytes cut after 100 bytes");
      assertThat(wal.append(payload(3, 100))).isEqualTo(3);
    }
    appendBytes(last, new byte[300]);
    try (Wal wal = open()) {
      assertThat(wal.tornTail().orElseThrow().reason()).contains("zero bytes");
      assertThat(wal.nextIndex()).isEqualTo(4);
    }
    try (Wal wal = open()) {
      assertThat(wal.tornTail()).isEmpty();
    }
  }

  @Test
  void aCutRecordFollowedByZerosIsATornWriteButFollowedByDataIsCorruption() throws IOException {
    try (Wal wal = open()) {
      wal.append(payload(0, 100));
    }
    Path last = segments().getLast();
    byte[] cut = ByteBuffer.allocate(248).putInt(100).putInt(99).put(payload(1, 40)).array();
    appendBytes(last, cut);
    try (Wal wal = open()) {
      assertThat(wal.tornTail().orElseThrow().reason())
          .isEqualTo("CRC32C mismatch in record 1 of 100 bytes");
      assertThat(wal.tornTail().orElseThrow().bytesCut()).isEqualTo(248);
    }
    cut[cut.length - 1] = 1;
    appendBytes(last, cut);
    assertThatThrownBy(this::open)
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageEndingWith("at offset 108: CRC32C mismatch in record 1 of 100 bytes");
  }

  @Test
  void aFlippedByteBeforeTheLastRecordIsCorruptionNamingFileAndOffset() throws IOException {
    try (Wal wal = open()) {
      for (int i = 0; i < 5; i++) {
        wal.append(payload(i, 100));
      }
    }
    Path file = segments().getFirst();
    long recordTwo = 2 * (WalRecordCodec.HEADER_BYTES + 100L);
    flip(file, recordTwo + WalRecordCodec.HEADER_BYTES + 17);
    assertThatThrownBy(this::open)
        .isInstanceOf(WalCorruptionException.class)
        .hasMessage(
            "WAL corruption in "
                + file
                + " at offset "
                + recordTwo
                + ": CRC32C mismatch in record 2 of 100 bytes");
  }

  @Test
  void replayRechecksRecordsChangedAfterOpening() throws IOException {
    try (Wal wal = open()) {
      for (int i = 0; i < 5; i++) {
        wal.append(payload(i, 100));
      }
      wal.sync();
      Path file = segments().getFirst();
      flip(file, WalRecordCodec.HEADER_BYTES + 100L + WalRecordCodec.HEADER_BYTES);
      List<Long> before = new ArrayList<>();
      assertThatThrownBy(() -> wal.replay(0, (index, bytes) -> before.add(index)))
          .isInstanceOf(WalCorruptionException.class)
          .hasMessage(
              "WAL corruption in "
                  + file
                  + " at offset 108: CRC32C mismatch in record 1 of 100 bytes");
      assertThat(before).containsExactly(0L);
    }
  }

  @Test
  void aBadRecordInASealedSegmentIsCorruptionEvenAtItsEnd() throws IOException {
    try (Wal wal = open()) {
      for (int i = 0; i < 40; i++) {
        wal.append(payload(i, 200));
      }
    }
    Path first = segments().getFirst();
    flip(first, Files.size(first) - 1);
    assertThatThrownBy(this::open)
        .isInstanceOf(WalCorruptionException.class)
        .hasMessageStartingWith("WAL corruption in " + first + " at offset ");
  }

  @Test
  void limitsAndTheDirectoryLockPushBack() {
    try (Wal wal = open()) {
      assertThatThrownBy(() -> wal.append(new byte[MAX_RECORD + 1]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("WAL record of 1001 bytes is larger than the limit of 1000");
      assertThatThrownBy(this::open)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is open in another process");
    }
  }

  private Wal open() {
    return Wal.open(new WalConfig(dir, MAX_RECORD, SEGMENT));
  }

  private List<Path> segments() {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".wal")).sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] payload(long index, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (index * 31 + i);
    }
    return bytes;
  }

  private static void appendBytes(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.APPEND);
  }

  private static void flip(Path file, long offset) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) offset] ^= 0x08;
    Files.write(file, bytes);
  }
}
