package io.rubinbft.bft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Four real replicas whose every message crosses {@link MessageCodec} (encoded once, decoded by
 * each receiver, as over rdma-net) and whose every WAL record crosses {@link WalRecordCodec},
 * through the normal case, a view change with a deposed primary, state transfer and a crash
 * recovery from the decoded log. Proves the codecs carry what the protocol actually sends, not only
 * what the random generators make.
 */
class WireClusterTest {

  private static final int REPLICAS = 4;
  private static final long SEED = 20261121L;

  private final ReplicaConfig config = Cluster.simConfig(REPLICAS);
  private final WireLimits limits = WireLimits.of(config, 1024, 64);
  private final MessageCodec messages = new MessageCodec(limits);
  private final WalRecordCodec records = new WalRecordCodec(limits);
  private final SimKeys keys = new SimKeys(REPLICAS, SEED);
  private final SimApplication application = new SimApplication();
  private final Replica[] replicas = new Replica[REPLICAS];
  private final List<List<WalRecord>> wals = new ArrayList<>();
  private final int[] decided = new int[REPLICAS];
  private final ArrayDeque<Wire> network = new ArrayDeque<>();
  private final Set<String> messageTypes = new TreeSet<>();
  private final Set<String> recordTypes = new TreeSet<>();
  private int isolated = -1;
  private int submitted;

  /** Bytes on their way from one replica to another. */
  private record Wire(int from, int to, byte[] bytes) {}

  @Test
  void theProtocolRunsOnDecodedBytes() {
    for (int id = 0; id < REPLICAS; id++) {
      replicas[id] = Replica.start(config.withSelf(id), services(id));
      wals.add(new ArrayList<>());
    }
    submitAndRun(40, 200);
    assertThat(decided).containsOnly(40);

    isolated = 0;
    submitAndRun(20, 2_000);
    assertThat(decided[1]).isEqualTo(60);

    isolated = -1;
    replicas[2] =
        Replica.recover(config.withSelf(2), services(2), List.copyOf(wals.get(2))::forEach);
    submitAndRun(20, 2_000);
    assertThat(decided).containsOnly(80);

    assertThat(messageTypes)
        .containsExactlyInAnyOrder(
            "PrePrepare",
            "Prepare",
            "Commit",
            "Checkpoint",
            "Complaint",
            "ViewChange",
            "NewView",
            "Status",
            "FetchDecisions",
            "Decisions");
    assertThat(recordTypes)
        .containsExactlyInAnyOrder(
            "Accepted",
            "Prepared",
            "Signed",
            "Decided",
            "StableCheckpoint",
            "ViewChangeSent",
            "ViewInstalled");
  }

  private void submitAndRun(int count, int maxTicks) {
    for (int i = 0; i < count; i++, submitted++) {
      Request request = new Request(new RequestId("client", "tx-" + submitted), new byte[100]);
      for (int id = 0; id < REPLICAS; id++) {
        handle(id, replicas[id].step(new Event.ClientRequest(request)));
      }
    }
    int target = submitted;
    for (int tick = 0; tick < maxTicks && !allDecided(target); tick++) {
      deliverAll();
      for (int id = 0; id < REPLICAS; id++) {
        handle(id, replicas[id].step(new Event.Tick()));
      }
    }
    deliverAll();
  }

  private boolean allDecided(int target) {
    for (int id = 0; id < REPLICAS; id++) {
      if (id != isolated && decided[id] < target) {
        return false;
      }
    }
    return true;
  }

  private void deliverAll() {
    while (!network.isEmpty()) {
      Wire wire = network.poll();
      Decoded<Message> decoded = messages.decode(wire.bytes());
      assertThat(decoded).isInstanceOf(Decoded.Valid.class);
      Message message = ((Decoded.Valid<Message>) decoded).value();
      assertThat(messages.encode(message)).isEqualTo(wire.bytes());
      handle(wire.to(), replicas[wire.to()].step(new Event.Received(wire.from(), message)));
    }
  }

  /** Persists through the WAL codec, then sends through the message codec, then counts. */
  private void handle(int id, Effects effects) {
    for (WalRecord record : effects.persist()) {
      byte[] bytes = records.encode(record);
      Decoded<WalRecord> decoded = records.decode(bytes);
      assertThat(decoded).isInstanceOf(Decoded.Valid.class);
      WalRecord back = ((Decoded.Valid<WalRecord>) decoded).value();
      assertThat(records.encode(back)).isEqualTo(bytes);
      wals.get(id).add(back);
      recordTypes.add(record.getClass().getSimpleName());
    }
    send(id, effects.sendNow());
    send(id, effects.sendAfterPersist());
    effects.decisions().forEach(decision -> decided[id] += decision.proposal().requests().size());
  }

  private void send(int from, List<Outbound> outbounds) {
    for (Outbound outbound : outbounds) {
      byte[] bytes = messages.encode(outbound.message());
      messageTypes.add(outbound.message().getClass().getSimpleName());
      for (int to = 0; to < REPLICAS; to++) {
        boolean addressed = outbound.to().isEmpty() ? to != from : outbound.to().getAsInt() == to;
        if (addressed && from != isolated && to != isolated) {
          network.add(new Wire(from, to, bytes));
        }
      }
    }
  }

  private ReplicaServices services(int id) {
    return new ReplicaServices(
        keys.crypto(id), keys.signer(id, new Random(SEED + id)), application, application);
  }
}
