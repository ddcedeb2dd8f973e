package io.rubinbft.orderer.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.client.SeekInfos;
import io.rubinbft.orderer.configtx.SignedUpdates;
import io.rubinbft.orderer.files.FileTrees;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.metrics.MetricsScrape;
import io.rubinbft.orderer.testing.ClientCalls;
import io.rubinbft.orderer.testing.ConsenterUpdates;
import io.rubinbft.orderer.testing.DeliverCalls;
import io.rubinbft.orderer.tools.loadgen.OrdererChannels;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.Consenter;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.BroadcastResponse;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Channels a node stopped serving for good, on a running 4-node cluster, reported "failed" by the
 * participation API as Fabric reports a channel whose last operation failed. The cause is real: a
 * node's consensus WAL folder is gone (a regular file stands in its place, as after a disk or
 * operator mishap), so the next WAL it opens cannot be created. A consenter's replica stops at the
 * next epoch (a BatchSize update ends it): "failed" where it said "active", relation and height
 * unchanged, while {@code /healthz} fails "consensus" and the others keep ordering. Removing the
 * failed channel frees it: once the folder is back, joining again with the genesis block works and
 * the node catches up. A follower added back to the consenters cannot start its replica: "failed"
 * with the relation it was switching to, {@code /healthz} failing "channels" (but healthy without
 * that check, as the Helm chart's liveness probe asks), its ledger still served by Deliver and the
 * block fetch, Broadcast refused with SERVICE_UNAVAILABLE and the reason, and removable.
 */
class FailedChannelNodeTest {

  private static final int BROKEN = 3;

  @TempDir Path dir;

  @AutoClose private LocalCluster cluster;

  @Test
  void aStoppedReplicaIsFailedUntilRemovedAndTheChannelCanBeJoinedAgain() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    OrdererNode broken = cluster.nodes.get(BROKEN);
    assertThat(info(broken).get("status").getAsString()).isEqualTo("active");

    Path wal = cluster.walDirectory(BROKEN);
    FileTrees.delete(wal);
    Files.writeString(wal, "not a folder");
    HttpResponse<String> updated =
        cluster.update(
            cluster.nodes.getFirst(),
            SignedUpdates.signed(
                    ConfigUpdateNodeTest.batchSizeUpdate(cluster.config(), 5),
                    List.of(cluster.ordererAdmin()))
                .toByteArray());
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(201);
    LocalCluster.awaitFailedCheck(broken, "consensus");
    // The Helm chart's probes leave out only "channels": a stopped replica still fails them.
    HttpResponse<String> probed = LocalCluster.healthz(broken, "?exclude=channels");
    assertThat(probed.statusCode()).as(probed.body()).isEqualTo(503);
    assertThat(probed.body()).contains("\"component\":\"consensus\"");

    JsonObject failed = info(broken);
    assertThat(failed.get("status").getAsString()).isEqualTo("failed");
    assertThat(failed.get("consensusRelation").getAsString()).isEqualTo("consenter");
    assertThat(failed.get("height").getAsLong()).isEqualTo(LocalCluster.ledger(broken).height());
    assertThat(info(cluster.nodes.getFirst()).get("status").getAsString()).isEqualTo("active");
    // Fabric's participation_status gauge: 3 is failed.
    assertThat(
            MetricsScrape.value(
                MetricsScrape.of(broken),
                "participation_status",
                Map.of("channel", LocalCluster.CHANNEL)))
        .isEqualTo(3);

    HttpResponse<String> removed = cluster.remove(broken);
    assertThat(removed.statusCode()).as(removed.body()).isEqualTo(204);
    assertThat(cluster.info(broken).statusCode()).isEqualTo(404);
    assertThat(broken.channels().channelNames()).isEmpty();

    Files.delete(wal);
    Files.createDirectories(wal);
    HttpResponse<String> joined = cluster.join(broken);
    assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    cluster.submit(client, 10, cluster.nodes.subList(0, BROKEN));
    // The config block and the 10 transactions, also on the node that joined again.
    cluster.awaitTransactions(1 + 10);
    assertThat(info(broken).get("status").getAsString()).isEqualTo("active");
  }

  /**
   * A consenter removed from the channel follows it; its WAL folder is gone when a later update
   * adds it back, so its replica cannot start: the channel is "failed" with the relation it was
   * switching to, and removing it works.
   */
  @Test
  void aFollowerThatCannotStartItsReplicaWhenAddedBackIsFailedUntilRemoved() throws Exception {
    cluster = LocalCluster.generate(dir);
    cluster.startAndJoin();
    OrdererNode broken = cluster.nodes.get(BROKEN);
    long id = cluster.network.nodes().get(BROKEN).id();
    Consenter consenter =
        ConsenterUpdates.consenters(cluster.config()).stream()
            .filter(c -> c.getId() == id)
            .findFirst()
            .orElseThrow();

    updateConsenters(consenters -> consenters.stream().filter(c -> c.getId() != id).toList());
    await(() -> broken.channels().follower(LocalCluster.CHANNEL).isPresent(), "node follows");
    assertThat(info(broken).get("consensusRelation").getAsString()).isEqualTo("follower");
    assertThat(info(broken).get("status").getAsString()).isEqualTo("active");

    Path wal = cluster.walDirectory(BROKEN);
    FileTrees.delete(wal);
    Files.writeString(wal, "not a folder");
    updateConsenters(
        consenters -> Stream.concat(consenters.stream(), Stream.of(consenter)).toList());
    JsonObject failed = awaitStatusOtherThanActive(broken);
    assertThat(failed.get("status").getAsString()).isEqualTo("failed");
    assertThat(failed.get("consensusRelation").getAsString()).isEqualTo("consenter");
    ChannelConfig newest =
        cluster.nodes.getFirst().channels().runtime(LocalCluster.CHANNEL).orElseThrow().config();
    assertThat(failed.get("height").getAsLong()).isEqualTo(newest.blockNumber() + 1);

    // /healthz names it under "channels"; a probe leaving that check out finds the node healthy.
    HttpResponse<String> health = LocalCluster.healthz(broken, "");
    assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
    assertThat(health.body())
        .contains(
            "{\"component\":\"channels\",\"reason\":\"channel 'mychannel': cannot start the"
                + " replica of a new consenter: ");
    HttpResponse<String> live = LocalCluster.healthz(broken, "?exclude=channels");
    assertThat(live.statusCode()).as(live.body()).isEqualTo(200);

    // Its ledger is still served, as a stopped replica's is; Broadcast is refused with the reason.
    assertThat(headers(deliverAll(broken, newest.blockNumber())))
        .isEqualTo(headers(deliverAll(cluster.nodes.getFirst(), newest.blockNumber())));
    HttpResponse<byte[]> fetched = cluster.fetch(broken, "newest");
    assertThat(fetched.statusCode()).isEqualTo(200);
    assertThat(Block.parseFrom(fetched.body()).getHeader().getNumber())
        .isEqualTo(newest.blockNumber());
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    BroadcastResponse refused;
    try (OrdererChannels connection = cluster.connect(List.of(broken))) {
      refused =
          ClientCalls.broadcast(
              connection.channels().getFirst(),
              client.transaction(LocalCluster.CHANNEL, new byte[10]).envelope());
    }
    assertThat(refused.getStatus()).isEqualTo(Status.SERVICE_UNAVAILABLE);
    assertThat(refused.getInfo())
        .contains(
            "this orderer stopped serving channel 'mychannel' (cannot start the replica of a new"
                + " consenter: ")
        .endsWith("it only serves the blocks it has, send to another orderer of the channel");

    HttpResponse<String> removed = cluster.remove(broken);
    assertThat(removed.statusCode()).as(removed.body()).isEqualTo(204);
    assertThat(cluster.info(broken).statusCode()).isEqualTo(404);
  }

  /**
   * Sends a consenter change to the first node and waits until it runs under the config block that
   * makes it.
   */
  private void updateConsenters(UnaryOperator<List<Consenter>> change) throws Exception {
    Config current = cluster.config();
    HttpResponse<String> updated =
        cluster.update(
            cluster.nodes.getFirst(),
            SignedUpdates.signed(
                    ConsenterUpdates.update(LocalCluster.CHANNEL, current, change),
                    List.of(cluster.ordererAdmin()))
                .toByteArray());
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(201);
    await(
        () -> cluster.config().getSequence() > current.getSequence(),
        "the first node runs the update");
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  /** The node's info once its status is no longer "active", or when waiting for that timed out. */
  private JsonObject awaitStatusOtherThanActive(OrdererNode node) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    JsonObject info = info(node);
    while (info.get("status").getAsString().equals("active") && System.nanoTime() < deadline) {
      Thread.sleep(50);
      info = info(node);
    }
    return info;
  }

  private JsonObject info(OrdererNode node) throws Exception {
    HttpResponse<String> info = cluster.info(node);
    assertThat(info.statusCode()).as(info.body()).isEqualTo(200);
    return JsonParser.parseString(info.body()).getAsJsonObject();
  }

  /** Blocks 0 to {@code last} as {@code node}'s Deliver service answers a client of the channel. */
  private List<Block> deliverAll(OrdererNode node, long last) throws Exception {
    EnvelopeFactory client = new EnvelopeFactory(cluster.clientIdentity(), Clock.systemUTC());
    try (OrdererChannels connection = cluster.connect(List.of(node))) {
      DeliverCalls.Answer answer =
          DeliverCalls.request(
              connection.channels().getFirst(),
              client.seek(LocalCluster.CHANNEL, SeekInfos.range(0, last), ByteString.EMPTY),
              Duration.ofSeconds(60));
      assertThat(answer.status()).isEqualTo(Status.SUCCESS);
      return answer.blocks();
    }
  }

  /** The blocks' headers: each replica signs its own copy, so their metadata differs. */
  private static List<BlockHeader> headers(List<Block> blocks) {
    return blocks.stream().map(Block::getHeader).toList();
  }
}
