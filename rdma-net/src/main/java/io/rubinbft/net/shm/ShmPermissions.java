package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.VerbsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Who may read a shared-memory device's files: its own user only. Frames cross shm in the clear
 * inside these files before the receiver decrypts them, and the mapped rings are writable, so
 * another local user must not reach them. The root is created 0700 or, if it exists, must be a real
 * directory (not a symbolic link) owned by this process's user with mode 0700; files are created
 * 0600 and directories 0700. An attacker who pre-creates the root with another owner or a wider
 * mode is refused at start with a message that says what is wrong and what to do.
 */
final class ShmPermissions {

  static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
  static final Set<PosixFilePermission> DIRECTORY_MODE =
      PosixFilePermissions.fromString("rwx------");

  /** For {@code Files} and {@code FileChannel} calls that create a file. */
  static final FileAttribute<Set<PosixFilePermission>> FILE =
      PosixFilePermissions.asFileAttribute(FILE_MODE);

  /** For {@code Files} calls that create a directory. */
  static final FileAttribute<Set<PosixFilePermission>> DIRECTORY =
      PosixFilePermissions.asFileAttribute(DIRECTORY_MODE);

  private ShmPermissions() {}

  /** Creates {@code root} (mode 0700) if it is missing, then {@link #checkRoot checks} it. */
  static void prepareRoot(Path root) throws VerbsException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectories(root, DIRECTORY);
      } catch (IOException e) {
        throw new VerbsException(
            "cannot create the shm directory "
                + root
                + "; choose a writable directory, ideally on tmpfs such as /dev/shm",
            e);
      }
    }
    checkRoot(root, processUid());
  }

  /** Refuses {@code root} unless it is a real directory of user {@code uid} with mode 0700. */
  static void checkRoot(Path root, int uid) throws VerbsException {
    try {
      if (Files.isSymbolicLink(root)) {
        throw new VerbsException(
            "the shm directory " + root + " is a symbolic link; give the real directory");
      }
      if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
        throw new VerbsException("the shm directory " + root + " is not a directory");
      }
      int owner = (Integer) Files.getAttribute(root, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (owner != uid) {
        throw new VerbsException(
            "the shm directory "
                + root
                + " is owned by uid "
                + owner
                + ", not by this process's user (uid "
                + uid
                + "); another user could read or write its frames: remove it or choose another"
                + " directory");
      }
      Set<PosixFilePermission> mode =
          Files.getPosixFilePermissions(root, LinkOption.NOFOLLOW_LINKS);
      if (!mode.equals(DIRECTORY_MODE)) {
        throw new VerbsException(
            "the shm directory "
                + root
                + " has mode "
                + PosixFilePermissions.toString(mode)
                + " but must have rwx------ (0700) so no other user reaches its files: chmod 700 "
                + root);
      }
    } catch (VerbsException e) {
      throw e;
    } catch (IOException | UnsupportedOperationException e) {
      throw new VerbsException(
          "cannot check the owner and mode of the shm directory " + root + ": " + e, e);
    }
  }

  /** Gives an existing file (e.g. a socket, whose mode bind takes from the umask) mode 0600. */
  static void restrict(Path file) throws IOException {
    Files.setPosixFilePermissions(file, FILE_MODE);
  }

  /** This process's user: the owner of {@code /proc/self}. */
  static int processUid() throws VerbsException {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new VerbsException("cannot tell this process's user from /proc/self: " + e, e);
    }
  }
}
