package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.host.EpochHost;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimHostedEpoch;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.Crypto;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The per-block work a replica saves on votes that arrive after their quorum (issue 20): with n = 4
 * one prepare in three and one checkpoint in three come after the slot prepared or the checkpoint
 * became stable, and their signatures are not checked; and a batch whose only record is a stable
 * checkpoint costs no WAL sync of its own. Backup 1 of 4, a checkpoint at every decision (window 2,
 * the shape the orderer runs with 10 MB blocks), driven by hand.
 */
class VotesAfterTheirQuorumTest {

  private static final int SELF = 1;

  /** Four replicas, window 2 and a checkpoint at every sequence. */
  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          4,
          SELF,
          4,
          1 << 16,
          2,
          2,
          1,
          500,
          1024,
          60,
          20,
          8,
          2,
          10_000,
          Decisions.MAX_ANSWER_BYTES);

  private final SimKeys keys = new SimKeys(4, 11);
  private final SimApplication application = new SimApplication();
  private final Request request =
      new Request(new RequestId("client-0", "tx-0"), new byte[] {1, 2, 3});
  private final Proposal proposal =
      new Proposal(
          1, Digest.GENESIS, List.of(request), application.assemble(1, List.of(request), null));
  private final Digest digest = SimKeys.digestOf(proposal);
  private final List<String> verified = new ArrayList<>();

  @Test
  void votesArrivingAfterTheirQuorumAreNotVerified() {
    Replica replica = backup();

    replica.step(received(0, prePrepare()));
    replica.step(received(2, prepare(2)));
    assertThat(verified).containsExactly("vote of 0", "vote of 2");

    replica.step(received(3, prepare(3)));
    assertThat(verified).as("a prepare for a slot prepared in its view").hasSize(2);

    replica.step(received(0, commit(0)));
    Effects decided = replica.step(received(2, commit(2)));
    assertThat(decided.decisions()).extracting(Decision::sequence).containsExactly(1L);
    replica.step(received(0, checkpoint(0)));
    Effects stable = replica.step(received(2, checkpoint(2)));
    assertThat(stable.persist()).singleElement().isInstanceOf(WalRecord.StableCheckpoint.class);
    assertThat(replica.status().lowWatermark()).isEqualTo(1);
    assertThat(verified).containsExactly("vote of 0", "vote of 2", "vote of 0", "vote of 2");

    replica.step(received(3, checkpoint(3)));
    replica.step(received(3, prepare(3)));
    assertThat(verified)
        .as("a checkpoint at the stable one, a prepare for a delivered sequence")
        .hasSize(4);
    assertThat(replica.status().drops()).isEmpty();
  }

  @Test
  void aBadVoteBeforeItsQuorumIsStillDropped() {
    Replica replica = backup();
    replica.step(received(0, prePrepare()));

    replica.step(received(2, new Prepare(0, 1, digest, 2, keys.crypto(3).sign(new byte[] {9}))));

    assertThat(replica.status().drops()).isNotEmpty();
  }

  @Test
  void aBatchWhoseOnlyRecordIsAStableCheckpointIsNotSynced() throws InterruptedException {
    List<String> trace = new ArrayList<>();
    EpochHost<SimHostedEpoch> host =
        new EpochHost<>(
            new SimHostedEpoch(
                new ArrayList<>(),
                0,
                backup(),
                messages -> {},
                reads -> {},
                () -> false,
                d -> false) {
              @Override
              public void sync() {
                trace.add("sync");
              }
            },
            new io.rubinbft.bft.host.HostApplication() {
              @Override
              public void execute(Decision decision) {
                trace.add("execute " + decision.sequence());
              }

              @Override
              public void awaitDurable(Decision anchor) {}
            },
            (ended, anchor, handover) -> Optional.empty());
    for (Event event :
        List.of(
            received(0, prePrepare()),
            received(2, prepare(2)),
            received(0, commit(0)),
            received(2, commit(2)),
            received(0, checkpoint(0)))) {
      host.step(event);
      host.finish();
    }
    assertThat(trace).containsExactly("sync", "sync", "sync", "execute 1");

    host.step(received(2, checkpoint(2)));
    host.finish();

    assertThat(host.epoch().replica().status().lowWatermark()).isEqualTo(1);
    assertThat(trace).as("the stable checkpoint waits for the next sync").hasSize(4);
  }

  private Replica backup() {
    Crypto sim = keys.crypto(SELF);
    Crypto counting =
        new Crypto() {
          @Override
          public byte[] digest(byte[] data) {
            return sim.digest(data);
          }

          @Override
          public byte[] sign(byte[] data) {
            return sim.sign(data);
          }

          @Override
          public boolean verify(int replica, byte[] data, byte[] signature) {
            verified.add("vote of " + replica);
            return sim.verify(replica, data, signature);
          }
        };
    return Replica.start(
        CONFIG,
        new ReplicaServices(
            counting, keys.signer(SELF, new Random(SELF)), application, application));
  }

  private PrePrepare prePrepare() {
    return new PrePrepare(0, 1, digest, proposal, 0, vote(0));
  }

  private Prepare prepare(int replica) {
    return new Prepare(0, 1, digest, replica, vote(replica));
  }

  private Commit commit(int replica) {
    return new Commit(0, 1, digest, replica, keys.signCommit(replica, 0, digest, replica));
  }

  private Checkpoint checkpoint(int replica) {
    return new Checkpoint(
        1,
        digest,
        replica,
        keys.crypto(replica).sign(SignedBytes.checkpoint(Epoch.GENESIS, 1, digest)));
  }

  private byte[] vote(int replica) {
    return keys.crypto(replica).sign(SignedBytes.prepareVote(Epoch.GENESIS, 0, 1, digest));
  }

  private static Event received(int from, io.rubinbft.bft.message.Message message) {
    return new Event.Received(from, message);
  }
}
