package io.rubinbft.orderer.onboarding;

import io.rubinbft.orderer.channel.ChannelIds;
import io.rubinbft.orderer.files.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The join blocks of channels still onboarding, one file each ({@code <channel>.join}, as Fabric
 * keeps them under {@code pendingops/join}), so that a node restarted during onboarding resumes it
 * with the same trust anchor. A file is written (atomically) before the channel's ledger is made
 * and removed after the join block is in the ledger. Thread-safe (files only).
 */
public final class PendingJoins {

  private static final String SUFFIX = ".join";

  private final Path directory;

  public PendingJoins(Path directory) {
    this.directory = directory;
  }

  /** Keeps {@code joinBlock} as channel {@code channel}'s pending join block. */
  public void save(String channel, byte[] joinBlock) {
    AtomicFiles.write(file(channel), joinBlock);
  }

  /** The pending join block of {@code channel}, if it has one. */
  public Optional<byte[]> read(String channel) {
    Path file = file(channel);
    try {
      return Files.exists(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The channels with a pending join block, sorted. */
  public List<String> channels() {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    List<String> channels = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith(SUFFIX)) {
          String channel = name.substring(0, name.length() - SUFFIX.length());
          if (ChannelIds.invalidReason(channel).isEmpty()) {
            channels.add(channel);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory, e);
    }
    return List.copyOf(channels);
  }

  /** Forgets {@code channel}'s pending join block (its onboarding ended or it was removed). */
  public void remove(String channel) {
    try {
      Files.deleteIfExists(file(channel));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file(channel), e);
    }
  }

  private Path file(String channel) {
    return directory.resolve(channel + SUFFIX);
  }
}
