package io.rubinbft.orderer.onboarding;

import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.consensus.ConfigState;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Sha256;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.OrdererAddresses;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * Fabric's own 10-block BFT chain (fixtures/blocks, config blocks at 6 and 7, 3 of 4 consenter
 * signatures on every block after 0) and the fixture orderer1's identity and TLS key pair, for
 * pulling tests.
 */
final class FixturePulling {

  static final String CHANNEL = "fixture";
  static final int HEIGHT = 10;

  /** Blocks 6 and 7 are config blocks (a BatchSize update, then another). */
  static final long NEWEST_CONFIG_BLOCK = 7;

  static final CryptoProvider CRYPTO = CryptoProvider.preferNative();

  private FixturePulling() {}

  static List<Block> chain() {
    return IntStream.range(0, HEIGHT).mapToObj(FixturePulling::block).toList();
  }

  static Block block(int number) {
    Path file = FabricFixtures.root().resolve(String.format("blocks/bft-%03d.block", number));
    try {
      return Block.parseFrom(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Orderer 1's TLS listener settings: its server key pair, trusting the org's TLS CA. */
  static TlsSettings tls() {
    return FabricFixtures.ordererServerTls(1);
  }

  static PullContext context(PullLimits limits) {
    SigningIdentity identity =
        SigningIdentity.fromMspDirectory(
            FabricFixtures.orderer(1).resolve("msp"), "OrdererMSP", CRYPTO);
    return new PullContext(
        identity,
        CRYPTO,
        Clock.systemUTC(),
        Optional.of(NodeTls.of(tls(), new Sha256(CRYPTO))),
        Optional.empty(),
        limits);
  }

  /**
   * Short backoffs; a silent source is given up after 5 s (its first block includes the TLS
   * connection of a cold JVM on a loaded machine), and so is a height probe.
   */
  static PullLimits quickLimits() {
    return new PullLimits(
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofMillis(20),
        Duration.ofMillis(200));
  }

  static BlockStore store(Path dir) {
    return BlockStore.open(BlockStoreConfig.defaults(dir));
  }

  /**
   * The newest config block's config with the orderer org's endpoints replaced by {@code
   * endpoints}.
   */
  static ConfigState configWithEndpoints(List<String> endpoints) {
    try {
      Payload payload =
          Payload.parseFrom(
              Envelope.parseFrom(block((int) NEWEST_CONFIG_BLOCK).getData().getData(0))
                  .getPayload());
      Config config = ConfigEnvelope.parseFrom(payload.getData()).getConfig();
      ConfigGroup channel = config.getChannelGroup();
      ConfigGroup orderer = channel.getGroupsOrThrow("Orderer");
      ConfigGroup org = orderer.getGroupsOrThrow("OrdererOrg");
      ConfigValue addresses =
          org.getValuesOrThrow("Endpoints").toBuilder()
              .setValue(
                  OrdererAddresses.newBuilder().addAllAddresses(endpoints).build().toByteString())
              .build();
      Config rewritten =
          config.toBuilder()
              .setChannelGroup(
                  channel.toBuilder()
                      .putGroups(
                          "Orderer",
                          orderer.toBuilder()
                              .putGroups(
                                  "OrdererOrg",
                                  org.toBuilder().putValues("Endpoints", addresses).build())
                              .build()))
              .build();
      return VerifyingAppender.configFactory(CRYPTO, Clock.systemUTC())
          .build(ConfigBlockReader.readConfig(CHANNEL, NEWEST_CONFIG_BLOCK, rewritten));
    } catch (InvalidProtocolBufferException | InvalidConfigException e) {
      throw new IllegalStateException(e);
    }
  }
}
