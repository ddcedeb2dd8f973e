package io.rubinbft.orderer.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir Path folder;

  @Test
  void replacesTheWholeFileAndLeavesNoTemporaryBehind() throws Exception {
    Path file = folder.resolve("state");
    AtomicFiles.write(file, bytes("a first, longer content"));

    AtomicFiles.write(file, bytes("second"));

    assertThat(Files.readString(file)).isEqualTo("second");
    assertThat(folder.resolve("state.partial")).doesNotExist();
  }

  /** A crash between writing the temporary file and the rename leaves it; the next write wins. */
  @Test
  void aTemporaryFileLeftByACrashIsReplacedNotAppendedTo() throws Exception {
    Path file = folder.resolve("state");
    Files.writeString(folder.resolve("state.partial"), "half written by a crashed node, longer");

    AtomicFiles.write(file, bytes("whole"));

    assertThat(Files.readString(file)).isEqualTo("whole");
    assertThat(folder.resolve("state.partial")).doesNotExist();
  }

  @Test
  void createsMissingDirectories() throws Exception {
    Path file = folder.resolve("a/b/state");

    AtomicFiles.write(file, bytes("content"));

    assertThat(Files.readString(file)).isEqualTo("content");
  }

  @Test
  void aFailureNamesTheFile() throws Exception {
    Path notADirectory = folder.resolve("plain");
    Files.writeString(notADirectory, "x");
    Path file = notADirectory.resolve("state");

    assertThatThrownBy(() -> AtomicFiles.write(file, bytes("content")))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(file.toString());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
