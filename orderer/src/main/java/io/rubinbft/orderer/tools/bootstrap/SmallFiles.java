package io.rubinbft.orderer.tools.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the small files of a crypto tree (certificates, keys, config.yaml) with a size cap. */
final class SmallFiles {

  /** Far above any certificate or MSP file; a larger file is a wrong path, not material. */
  static final int MAX_BYTES = 1 << 20;

  private SmallFiles() {}

  static byte[] read(Path file) {
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw new IllegalArgumentException(
            file + " is " + size + " bytes but a certificate or MSP file may hold " + MAX_BYTES);
      }
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
