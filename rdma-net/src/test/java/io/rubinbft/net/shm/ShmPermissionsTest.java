package io.rubinbft.net.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shm directory is its user's alone: created 0700 with files 0600, and a pre-created directory
 * that another user owns, that is wider than 0700 or that is a symbolic link is refused at start.
 * Attack: a local user creates the directory first (world-writable, or a link into a directory it
 * controls) to read frames in the mapped rings or write into them.
 */
class ShmPermissionsTest {

  @TempDir Path temp;

  @Test
  void aNewDirectoryAndEveryFileInItAreTheUsersAlone() throws IOException, VerbsException {
    Path root = temp.resolve("shm");
    try (ShmVerbsDevice device = ShmVerbsDevice.open(ShmOptions.defaults(root))) {
      device.register(4096);
      List<Path> made;
      try (Stream<Path> files = Files.walk(root)) {
        made = files.toList();
      }

      assertThat(made).hasSizeGreaterThan(4);
      for (Path path : made) {
        String mode =
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
        assertThat(mode)
            .as(path.toString())
            .isEqualTo(Files.isDirectory(path) ? "rwx------" : "rw-------");
      }
    }
  }

  @Test
  void aPreCreatedDirectoryWithAWiderModeIsRefusedNamingTheFix() throws IOException {
    Path root = temp.resolve("shm");
    Files.createDirectory(root);
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> ShmVerbsDevice.open(ShmOptions.defaults(root)))
        .isInstanceOf(VerbsException.class)
        .hasMessage(
            "the shm directory "
                + root
                + " has mode rwxrwxrwx but must have rwx------ (0700) so no other user reaches its"
                + " files: chmod 700 "
                + root);
    assertThat(root).isEmptyDirectory();
  }

  @Test
  void aDirectoryOfAnotherUserIsRefused() throws IOException, VerbsException {
    Path root = temp.resolve("shm");
    Files.createDirectory(root, ShmPermissions.DIRECTORY);
    int self = ShmPermissions.processUid();

    assertThatThrownBy(() -> ShmPermissions.checkRoot(root, self + 1))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("is owned by uid " + self)
        .hasMessageContaining("not by this process's user (uid " + (self + 1) + ")");
  }

  @Test
  void aSymbolicLinkIsRefusedEvenToAGoodDirectory() throws IOException {
    Path target = Files.createDirectory(temp.resolve("elsewhere"), ShmPermissions.DIRECTORY);
    Path root = Files.createSymbolicLink(temp.resolve("shm"), target);

    assertThatThrownBy(() -> ShmVerbsDevice.open(ShmOptions.defaults(root)))
        .isInstanceOf(VerbsException.class)
        .hasMessageContaining("is a symbolic link");
  }
}
