package io.rubinbft.orderer.node;

import io.rubinbft.orderer.files.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A channel's consensus WAL folders, one per epoch ({@code epoch-<s>} under the channel's WAL
 * folder): an epoch's replica logs only its own records, and older epochs' folders are deleted once
 * the next epoch has started (their records can never be needed again: the ledger holds the block
 * that ended them).
 */
final class EpochFolders {

  private static final String PREFIX = "epoch-";

  private final Path channel;

  EpochFolders(Path channel) {
    this.channel = channel;
  }

  Path of(long epoch) {
    return channel.resolve(PREFIX + epoch);
  }

  /** Deletes every epoch's folder: this node no longer orders on the channel. */
  void discardAll() {
    FileTrees.delete(channel);
  }

  /** Deletes every folder but {@code epoch}'s. */
  void discardExcept(long epoch) {
    Path kept = of(epoch);
    for (Path entry : entries()) {
      if (!entry.equals(kept)) {
        FileTrees.delete(entry);
      }
    }
  }

  /**
   * Moves a WAL written before epochs existed (segment files right in the channel's folder) into
   * the genesis epoch's folder, where recovery reads it: its votes must not be forgotten.
   */
  void adoptUnversioned() {
    List<Path> files = entries().stream().filter(Files::isRegularFile).toList();
    if (files.isEmpty()) {
      return;
    }
    try {
      Files.createDirectories(of(0));
      for (Path file : files) {
        Files.move(file, of(0).resolve(file.getFileName()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move the WAL of " + channel + " to " + of(0), e);
    }
  }

  private List<Path> entries() {
    if (!Files.isDirectory(channel)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(channel)) {
      return entries.toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + channel, e);
    }
  }
}
