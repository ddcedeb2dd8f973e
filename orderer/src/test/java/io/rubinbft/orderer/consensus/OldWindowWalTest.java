package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.WalBeyondWindowException;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.protocol.Replica;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consensus WAL written with a deeper window than this version derives (the earlier version kept
 * up to 16 proposals of 10 MB in flight, this one 2) does not start a replica: recovery refuses it
 * naming the sequence and the window. Before, the replica recovered with slots beyond its window,
 * whose votes its peers drop and whose prepared certificates make its view changes invalid, and a
 * new view computed over the smaller window could leave out a proposal a quorum prepared.
 */
class OldWindowWalTest {

  @TempDir Path wals;

  @Test
  void aWalWithProposalsBeyondTheWindowIsRefusedAtRecovery() throws Exception {
    try (FabricTestCluster cluster = new FabricTestCluster(wals, 64L << 20)) {
      ReplicaConfig current = cluster.replicaConfig(0);
      ReplicaConfig earlier = withWindow(current, 8 * current.window());
      // The primary of view 0 as the earlier version ran it, its records written by the real WAL
      // writer: one proposal per request while the earlier window has room, none decided (its
      // peers never answered before the crash).
      Replica primary = Replica.start(earlier, cluster.genesisOnlyServices(0));
      List<WalRecord> written = new ArrayList<>();
      for (Request request : cluster.transactions(earlier.window(), 200)) {
        written.addAll(stepAndLog(cluster, primary, new Event.ClientRequest(request)));
        for (int tick = 0; tick <= earlier.batchTimeoutTicks(); tick++) {
          written.addAll(stepAndLog(cluster, primary, new Event.Tick()));
        }
      }
      long accepted = written.stream().filter(WalRecord.Accepted.class::isInstance).count();
      assertThat(accepted)
          .as("proposals in flight the earlier window allowed")
          .isGreaterThan(current.window());

      assertThatThrownBy(cluster::crashAndRecoverAll)
          .isInstanceOf(WalBeyondWindowException.class)
          .hasMessageContaining("an accepted pre-prepare for sequence " + accepted)
          .hasMessageContaining(
              "beyond this replica's window of "
                  + current.window()
                  + " above its stable checkpoint 0");
    }
  }

  private static List<WalRecord> stepAndLog(
      FabricTestCluster cluster, Replica replica, Event event) {
    Effects effects = replica.step(event);
    cluster.log(0).append(effects.persist());
    cluster.log(0).sync();
    return effects.persist();
  }

  private static ReplicaConfig withWindow(ReplicaConfig config, int window) {
    return new ReplicaConfig(
        config.replicas(),
        config.self(),
        config.batchMaxCount(),
        config.batchMaxBytes(),
        config.batchTimeoutTicks(),
        window,
        config.checkpointInterval(),
        config.poolLimit(),
        config.requestMaxBytes(),
        config.requestTimeoutTicks(),
        config.viewChangeTimeoutTicks(),
        config.statusIntervalTicks(),
        Math.max(window, config.retainedDecisions()),
        config.decidedIdMemory(),
        config.answerMaxBytes());
  }
}
