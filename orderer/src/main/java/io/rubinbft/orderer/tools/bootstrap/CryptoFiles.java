package io.rubinbft.orderer.tools.bootstrap;

import io.rubinbft.orderer.crypto.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;

/** Writes the files of a crypto tree: private keys readable by their owner only (0600). */
final class CryptoFiles {

  private CryptoFiles() {}

  static void writePrivateKey(Path file, byte[] pkcs8) {
    createParent(file);
    // Created with 0600 from the start: there is no moment in which the key is world-readable.
    try (SeekableByteChannel channel =
        Files.newByteChannel(
            file,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ByteBuffer bytes = ByteBuffer.wrap(Pem.encodePrivateKey(pkcs8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write private key " + file, e);
    }
  }

  static void write(Path file, byte[] content) {
    createParent(file);
    try {
      Files.write(file, content, StandardOpenOption.CREATE_NEW);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void createParent(Path file) {
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create folder " + file.getParent(), e);
    }
  }
}
