package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Requests: the bounded pool pushes back, and a request is ordered at most once. */
class RequestScenarioTest {

  @Test
  void fullPoolPushesBack() {
    ReplicaConfig config =
        new ReplicaConfig(
            4, 1, 4, 1 << 16, 2, 16, 4, 8, 1024, 60, 20, 8, 64, 10_000, Decisions.MAX_ANSWER_BYTES);
    Replica backup = Replica.start(config, services(1));
    List<Rejection> rejected = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Effects effects = backup.step(new Event.ClientRequest(request("tx-" + i)));
      rejected.addAll(effects.rejected());
    }
    assertThat(rejected)
        .extracting(Rejection::reason)
        .containsExactly(
            "pool full: 8 requests pending, retry later",
            "pool full: 8 requests pending, retry later");
    assertThat(backup.status().pendingRequests()).isEqualTo(8);
  }

  /**
   * Clients send each request to every replica: an identical copy of a pending request is pending,
   * a different request under a pending id is refused as a conflict (never ordered).
   */
  @Test
  void copyOfPendingRequestIsTakenAndDifferentOneUnderItsIdRefused() {
    Replica backup = Replica.start(Cluster.simConfig(4).withSelf(1), services(1));
    RequestId id = new RequestId("c", "tx-1");
    assertThat(backup.step(new Event.ClientRequest(new Request(id, new byte[] {1}))).rejected())
        .isEmpty();
    assertThat(backup.step(new Event.ClientRequest(new Request(id, new byte[] {1}))).rejected())
        .isEmpty();
    assertThat(backup.step(new Event.ClientRequest(new Request(id, new byte[] {2}))).rejected())
        .extracting(Rejection::reason)
        .containsExactly("conflict: request c/tx-1 is pending with a different payload");
    assertThat(backup.status().pendingRequests()).isEqualTo(1);
  }

  /** The host bounds its pools' memory by these bytes: each pending request counts once. */
  @Test
  void thePoolCountsTheBytesOfItsPendingRequestsOnce() {
    Replica backup = Replica.start(Cluster.simConfig(4).withSelf(1), services(1));
    Request first = new Request(new RequestId("c", "a"), new byte[100]);
    Request second = new Request(new RequestId("c", "b"), new byte[300]);

    backup.step(new Event.ClientRequest(first));
    backup.step(new Event.ClientRequest(second));
    backup.step(new Event.ClientRequest(first));

    assertThat(backup.poolBytes()).isEqualTo(first.size() + second.size());
    assertThat(backup.poolSize()).isEqualTo(2);
  }

  @Test
  void oversizedRequestIsRejectedWithItsSize() {
    Replica backup = Replica.start(Cluster.simConfig(4).withSelf(1), services(1));
    Request huge = new Request(new RequestId("c", "big"), new byte[5000]);
    Effects effects = backup.step(new Event.ClientRequest(huge));
    assertThat(effects.rejected())
        .extracting(Rejection::reason)
        .containsExactly("request too large: 5004 bytes but at most 1024");
  }

  /** The limit counts the id's UTF-8 bytes, as the wire does: 400 chars of '€' are 1,200 bytes. */
  @Test
  void requestSizeCountsUtf8Bytes() {
    Replica backup = Replica.start(Cluster.simConfig(4).withSelf(1), services(1));
    Request euros = new Request(new RequestId("c", "€".repeat(400)), new byte[1]);
    Effects effects = backup.step(new Event.ClientRequest(euros));
    assertThat(effects.rejected())
        .extracting(Rejection::reason)
        .containsExactly("request too large: 1202 bytes but at most 1024");
  }

  @Test
  void resubmittedRequestsAreDecidedOnce() {
    Cluster cluster = Cluster.of(4, 51);
    cluster.submit(10);
    cluster.runUntilAllDecided(1000);
    cluster.resubmitAll();
    cluster.runTicks(200);
    assertThat(cluster.decidedAt(0)).isEqualTo(10);
    assertThat(cluster.status(0).lastDelivered()).isEqualTo(cluster.status(1).lastDelivered());
  }

  private static Request request(String key) {
    return new Request(new RequestId("client", key), new byte[10]);
  }

  private static ReplicaServices services(int replica) {
    SimKeys keys = new SimKeys(4, 1);
    SimApplication application = new SimApplication();
    return new ReplicaServices(
        keys.crypto(replica), keys.signer(replica, new Random(1)), application, application);
  }
}
