package io.rubinbft.orderer.onboarding;

import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import io.rubinbft.ledger.InvalidBlockException;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.consensus.ConfigState;
import io.rubinbft.orderer.consensus.ConfigStates;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.jspecify.annotations.Nullable;

/**
 * Checks pulled blocks and appends those that pass to a channel's ledger, as a Fabric peer checks
 * what an orderer delivers: the block must be the ledger's next (number, previous hash, data hash:
 * the ledger's own append checks), carry a quorum of valid consenter signatures under the consenter
 * set in force at it (that of the latest config block before it, as {@link ConfigStates} follows
 * the chain; {@link BlockSignatureVerifier} checks them), and name that config block as its last
 * config. A config block must hold a valid config of this channel, which is in force from the next
 * block on. Block 0 carries no signatures: it must be a config block of this channel, and what
 * anchors it is the hash chain up to a block the node trusts (the join block).
 *
 * <p>Blocks are appended without a sync, except config blocks: after a crash the ledger holds a
 * prefix of what was appended, and pulling resumes from its height. Not thread-safe: one puller.
 */
public final class VerifyingAppender implements BlockSink {

  /** Identities cached per config: pulling checks no client envelopes. */
  private static final int IDENTITY_CACHE = 64;

  private final ChannelLedger ledger;
  private final ConfigStates.Factory factory;
  private final EcKeys keys;
  private final EcdsaVerifier verifier;
  private @Nullable ConfigStates configs;
  private @Nullable ConfigState inForce;
  private @Nullable BlockSignatureVerifier signatures;

  /**
   * @throws InvalidConfigException when the ledger's newest config block cannot be read
   */
  public VerifyingAppender(ChannelLedger ledger, CryptoProvider provider, Clock clock)
      throws InvalidConfigException {
    this.ledger = ledger;
    this.factory = configFactory(provider, clock);
    this.keys = new EcKeys(provider);
    this.verifier = new EcdsaVerifier(provider);
    if (ledger.height() > 0) {
      start(ledger.block(ledger.height() - 1).orElseThrow().block());
    }
  }

  /** Builds the config states pulling needs: no client envelope is checked under them. */
  static ConfigStates.Factory configFactory(CryptoProvider provider, Clock clock) {
    return ConfigState.factory(provider, clock, IDENTITY_CACHE, 1);
  }

  /** The config in force for the ledger's next block, once the ledger holds block 0. */
  public Optional<ConfigState> inForce() {
    return Optional.ofNullable(inForce);
  }

  /** The configs along the chain, once the ledger holds block 0. */
  public Optional<ConfigStates> configs() {
    return Optional.ofNullable(configs);
  }

  @Override
  public Optional<Refusal> accept(Block block) {
    if (inForce == null) {
      return acceptFirst(block);
    }
    long number = block.getHeader().getNumber();
    Optional<String> unsigned =
        // start() set it with inForce.
        Objects.requireNonNull(signatures)
            .check(block.getHeader(), block.getMetadata())
            .invalidReason();
    if (unsigned.isPresent()) {
      return refusal(Refusal.Check.SIGNATURES, unsigned);
    }
    boolean isConfig = EnvelopeHeaders.isConfigBlock(block.getData().getDataList());
    long expectedLastConfig = isConfig ? number : inForce.config().blockNumber();
    Optional<String> lastConfig = lastConfigMismatch(block, expectedLastConfig);
    if (lastConfig.isPresent()) {
      return refusal(Refusal.Check.LAST_CONFIG, lastConfig);
    }
    ConfigState after = inForce;
    if (isConfig) {
      Optional<String> invalid = invalidConfig(block);
      if (invalid.isPresent()) {
        return refusal(Refusal.Check.CONFIG, invalid);
      }
      try {
        after = Objects.requireNonNull(configs).record(block, inForce); // set with inForce
      } catch (IllegalStateException e) {
        return refusal(
            Refusal.Check.CONFIG,
            Optional.of("config block " + number + " cannot be used: " + e.getMessage()));
      }
    }
    Optional<Refusal> refused = refusal(Refusal.Check.CHAIN, append(block, isConfig));
    if (refused.isPresent()) {
      return refused;
    }
    if (after != inForce) {
      inForce = after;
      signatures = signatureVerifier(after);
    }
    return Optional.empty();
  }

  /** Block 0: a config block of this channel, kept without signatures (none are made for it). */
  private Optional<Refusal> acceptFirst(Block block) {
    if (!EnvelopeHeaders.isConfigBlock(block.getData().getDataList())) {
      return refusal(
          Refusal.Check.CONFIG,
          Optional.of(
              "block "
                  + block.getHeader().getNumber()
                  + " is not a config block but a chain starts with one"));
    }
    Optional<String> invalid = invalidConfig(block);
    if (invalid.isPresent()) {
      return refusal(Refusal.Check.CONFIG, invalid);
    }
    Optional<Refusal> refused = refusal(Refusal.Check.CHAIN, append(block, true));
    if (refused.isPresent()) {
      return refused;
    }
    try {
      start(block);
    } catch (InvalidConfigException e) {
      throw new IllegalStateException("block 0 passed its config check but: " + e.getMessage(), e);
    }
    return Optional.empty();
  }

  private static Optional<Refusal> refusal(Refusal.Check check, Optional<String> message) {
    return message.map(m -> new Refusal(check, m));
  }

  private void start(Block tip) throws InvalidConfigException {
    configs = new ConfigStates(factory, ConfigStates.CommittedBlocks.of(ledger), tip);
    inForce = configs.committed();
    signatures = signatureVerifier(inForce);
  }

  private Optional<String> invalidConfig(Block block) {
    try {
      ChannelConfig config = ConfigBlockReader.read(block);
      if (!config.channelId().equals(ledger.name())) {
        return Optional.of(
            "config block "
                + block.getHeader().getNumber()
                + " is of channel '"
                + config.channelId()
                + "', not '"
                + ledger.name()
                + "'");
      }
      return Optional.empty();
    } catch (InvalidConfigException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  private static Optional<String> lastConfigMismatch(Block block, long expected) {
    long named;
    try {
      named = LastConfigIndex.of(block);
    } catch (IllegalArgumentException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
    if (named == expected) {
      return Optional.empty();
    }
    return Optional.of(
        "block "
            + block.getHeader().getNumber()
            + " names config block "
            + named
            + " as its last config but the config in force is that of block "
            + expected);
  }

  private Optional<String> append(Block block, boolean sync) {
    try {
      ledger.append(block.toByteArray(), sync ? Durability.SYNCED : Durability.UNSYNCED);
      return Optional.empty();
    } catch (InvalidBlockException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  private BlockSignatureVerifier signatureVerifier(ConfigState state) {
    return new BlockSignatureVerifier(state.config().consenters(), keys, verifier);
  }
}
