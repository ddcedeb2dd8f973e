package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.tools.bootstrap.SignaturePolicies;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigPolicy;
import org.hyperledger.fabric.protos.common.ConfigUpdate;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.LastConfig;
import org.hyperledger.fabric.protos.common.MSPRole;
import org.hyperledger.fabric.protos.common.Metadata;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Config updates on a running 4-node cluster, as operators make them: a BatchSize change sent with
 * Broadcast and an update of the application org's policies sent with {@code osnadmin channel
 * update}, each while transactions flow. Each is ordered alone in a CONFIG block that every later
 * block names as its last config, and takes effect from the next block on every replica: blocks
 * shrink to the new MaxMessageCount, the org's users can no longer write or read. The four ledgers
 * are identical and hash-chained at the end.
 */
class ConfigUpdateNodeTest {

  private static final int NEW_MAX_MESSAGE_COUNT = 3;

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void batchSizeAndOrgPolicyUpdatesTakeEffectAtTheirBlocksWhileTransactionsFlow() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    SigningIdentity user = cluster.clientIdentity();
    SigningIdentity orgAdmin = cluster.clientOrgAdmin();

    Envelope batchSize =
        SignedUpdates.signed(
            batchSizeUpdate(cluster.config(), NEW_MAX_MESSAGE_COUNT),
            List.of(cluster.ordererAdmin()));
    CompletableFuture<Void> flowing = inBackground(load(user, 60));
    assertThat(cluster.broadcast(0, batchSize).getStatus()).isEqualTo(Status.SUCCESS);
    flowing.get(120, TimeUnit.SECONDS);
    cluster.awaitConfigSequence(1);
    submit(user, 30);
    cluster.awaitTransactions(60 + 1 + 30);

    Envelope orgPolicies =
        SignedUpdates.signed(adminOnlyOrgPolicies(cluster.config(), cluster), List.of(orgAdmin));
    flowing = inBackground(load(orgAdmin, 40));
    HttpResponse<String> update = cluster.update(cluster.nodes.get(1), orgPolicies.toByteArray());
    assertThat(update.statusCode()).as(update.body()).isEqualTo(201);
    flowing.get(120, TimeUnit.SECONDS);
    cluster.awaitConfigSequence(2);
    cluster.awaitTransactions(60 + 1 + 30 + 40 + 1);

    EnvelopeFactory users = new EnvelopeFactory(user, Clock.systemUTC());
    BroadcastResponse refused =
        cluster.broadcast(2, users.transaction(LocalCluster.CHANNEL, new byte[100]).envelope());
    assertThat(refused.getStatus()).isEqualTo(Status.FORBIDDEN);
    assertThat(cluster.deliverNewest(3, users)).isEqualTo(Status.FORBIDDEN);
    // FAIL_IF_NOT_READY on the newest block: SUCCESS comes only after the block itself
    assertThat(cluster.deliverNewest(3, new EnvelopeFactory(orgAdmin, Clock.systemUTC())))
        .isEqualTo(Status.SUCCESS);

    assertLedgersAgree(List.of(batchSize, orgPolicies));

    // After a restart every node runs under the newest config block of its ledger.
    cluster.stopAll();
    cluster.startAll();
    cluster.awaitConfigSequence(2);
    submit(orgAdmin, 10);
    cluster.awaitTransactions(60 + 1 + 30 + 40 + 1 + 10);
    assertThat(
            cluster
                .broadcast(0, users.transaction(LocalCluster.CHANNEL, new byte[100]).envelope())
                .getStatus())
        .isEqualTo(Status.FORBIDDEN);
    assertLedgersAgree(List.of(batchSize, orgPolicies));
  }

  /**
   * All four chains equal, hash-chained, the updates alone in config blocks named by later ones.
   */
  private void assertLedgersAgree(List<Envelope> updates) throws Exception {
    List<Block> reference = LocalCluster.blocks(cluster.nodes.getFirst());
    for (OrdererNode node : cluster.nodes) {
      assertThat(LocalCluster.blocks(node).stream().map(Block::getHeader).toList())
          .isEqualTo(reference.stream().map(Block::getHeader).toList());
    }
    List<String> txIds = new ArrayList<>();
    List<Long> configBlocks = new ArrayList<>();
    long lastConfig = 0;
    for (Block block : reference.subList(1, reference.size())) {
      long number = block.getHeader().getNumber();
      Block previous = reference.get((int) number - 1);
      assertThat(block.getHeader().getPreviousHash().toByteArray())
          .isEqualTo(BlockHashing.headerHash(previous.getHeader()));
      assertThat(block.getHeader().getDataHash().toByteArray())
          .isEqualTo(BlockHashing.dataHash(block.getData()));
      if (isConfig(block)) {
        assertThat(block.getData().getDataCount()).isEqualTo(1);
        configBlocks.add(number);
        lastConfig = number;
      } else {
        for (ByteString envelope : block.getData().getDataList()) {
          txIds.add(channelHeader(envelope).getTxId());
        }
        if (!configBlocks.isEmpty()) {
          assertThat(block.getData().getDataCount()).isLessThanOrEqualTo(NEW_MAX_MESSAGE_COUNT);
        }
      }
      assertThat(LastConfigIndex.of(block)).isEqualTo(lastConfig);
      assertThat(
              LastConfig.parseFrom(
                      Metadata.parseFrom(block.getMetadata().getMetadata(1)).getValue())
                  .getIndex())
          .isEqualTo(lastConfig);
    }
    assertThat(configBlocks).hasSize(2);
    assertThat(txIds).doesNotHaveDuplicates();
    for (int i = 0; i < 2; i++) {
      Block block = reference.get(configBlocks.get(i).intValue());
      assertThat(configEnvelope(block).getLastUpdate()).isEqualTo(updates.get(i));
      assertThat(configEnvelope(block).getConfig().getSequence()).isEqualTo(i + 1);
    }
    HttpResponse<byte[]> fetched = cluster.fetch(cluster.nodes.get(2), "config");
    assertThat(fetched.statusCode()).isEqualTo(200);
    assertThat(fetched.body())
        .isEqualTo(
            LocalCluster.ledger(cluster.nodes.get(2))
                .block(lastConfig)
                .orElseThrow()
                .bytes()
                .toByteArray());
  }

  private static boolean isConfig(Block block) throws InvalidProtocolBufferException {
    return block.getData().getDataCount() == 1
        && channelHeader(block.getData().getData(0)).getType() == HeaderType.CONFIG_VALUE;
  }

  private static ChannelHeader channelHeader(ByteString envelope)
      throws InvalidProtocolBufferException {
    return ChannelHeader.parseFrom(
        Payload.parseFrom(Envelope.parseFrom(envelope).getPayload())
            .getHeader()
            .getChannelHeader());
  }

  private static ConfigEnvelope configEnvelope(Block block) throws InvalidProtocolBufferException {
    return ConfigEnvelope.parseFrom(
        Payload.parseFrom(Envelope.parseFrom(block.getData().getData(0)).getPayload()).getData());
  }

  /** BatchSize.MaxMessageCount set to {@code maxMessageCount}, the rest unchanged. */
  static ConfigUpdate batchSizeUpdate(Config config, int maxMessageCount)
      throws InvalidProtocolBufferException {
    ConfigGroup channel = config.getChannelGroup();
    ConfigGroup orderer = channel.getGroupsOrThrow("Orderer");
    ConfigValue batch = orderer.getValuesOrThrow("BatchSize");
    BatchSize size =
        BatchSize.parseFrom(batch.getValue()).toBuilder()
            .setMaxMessageCount(maxMessageCount)
            .build();
    ConfigValue changed =
        batch.toBuilder().setVersion(batch.getVersion() + 1).setValue(size.toByteString()).build();
    return update(
        "Orderer",
        ConfigGroup.newBuilder().setVersion(orderer.getVersion()).build(),
        ConfigGroup.newBuilder()
            .setVersion(orderer.getVersion())
            .putValues("BatchSize", changed)
            .build(),
        channel.getVersion());
  }

  /**
   * The client org's Writers and Readers narrowed to its admins: its users write and read no more.
   */
  private static ConfigUpdate adminOnlyOrgPolicies(Config config, LocalCluster cluster) {
    ConfigGroup channel = config.getChannelGroup();
    ConfigGroup application = channel.getGroupsOrThrow("Application");
    String orgName = application.getGroupsMap().keySet().iterator().next();
    ConfigGroup org = application.getGroupsOrThrow(orgName);
    ConfigPolicy adminsOnly =
        ConfigPolicy.newBuilder()
            .setModPolicy("Admins")
            .setPolicy(
                SignaturePolicies.signature(
                    SignaturePolicies.anyOf(
                        cluster.network.clientMspId(), List.of(MSPRole.MSPRoleType.ADMIN))))
            .build();
    ConfigGroup.Builder writeOrg = ConfigGroup.newBuilder().setVersion(org.getVersion());
    for (String name : List.of("Writers", "Readers")) {
      writeOrg.putPolicies(
          name,
          adminsOnly.toBuilder().setVersion(org.getPoliciesOrThrow(name).getVersion() + 1).build());
    }
    return update(
        "Application",
        ConfigGroup.newBuilder()
            .setVersion(application.getVersion())
            .putGroups(orgName, ConfigGroup.newBuilder().setVersion(org.getVersion()).build())
            .build(),
        ConfigGroup.newBuilder()
            .setVersion(application.getVersion())
            .putGroups(orgName, writeOrg.build())
            .build(),
        channel.getVersion());
  }

  private static ConfigUpdate update(
      String group, ConfigGroup read, ConfigGroup write, long channelVersion) {
    return ConfigUpdate.newBuilder()
        .setChannelId(LocalCluster.CHANNEL)
        .setReadSet(ConfigGroup.newBuilder().setVersion(channelVersion).putGroups(group, read))
        .setWriteSet(ConfigGroup.newBuilder().setVersion(channelVersion).putGroups(group, write))
        .build();
  }

  private void submit(SigningIdentity client, int count) throws Exception {
    cluster.submit(new EnvelopeFactory(client, Clock.systemUTC()), count);
  }

  private static CompletableFuture<Void> inBackground(Callable<Void> work) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                work.call();
                done.complete(null);
              } catch (Exception | AssertionError e) {
                done.completeExceptionally(e);
              }
            });
    return done;
  }

  /** A load of {@code count} transactions, as a background task. */
  private Callable<Void> load(SigningIdentity client, int count) {
    return () -> {
      submit(client, count);
      return null;
    };
  }
}
