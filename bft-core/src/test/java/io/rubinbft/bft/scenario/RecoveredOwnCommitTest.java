package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A replica recovered from its WAL counts its own commit only if the signature verifies in the
 * commit's view. A WAL written before commit signatures named their view (format 1) holds, for a
 * commit in a view above 0, a signature over other bytes: counted, it would put a signature nobody
 * accepts into the replica's certificate (for Fabric, a block with one invalid signature of its
 * quorum, which peers refuse).
 */
class RecoveredOwnCommitTest {

  private static final int SELF = 1;

  private final SimKeys keys = new SimKeys(4, 7);
  private final SimApplication application = new SimApplication();
  private final Request request =
      new Request(new RequestId("client-0", "tx-0"), new byte[] {1, 2, 3});
  private final Proposal proposal =
      new Proposal(
          1, Digest.GENESIS, List.of(request), application.assemble(1, List.of(request), null));
  private final Digest digest = SimKeys.digestOf(proposal);

  @Test
  void ownCommitValidInItsViewCountsTowardsTheDecision() {
    Replica replica = recoveredWithOwnCommitSignedInView(0);

    assertThat(replica.step(commitFrom(0)).decisions()).isEmpty();
    Effects decided = replica.step(commitFrom(2));

    assertThat(signers(decided)).containsExactly(0, 1, 2);
  }

  @Test
  void ownCommitNotValidInItsViewIsNotCounted() {
    Replica replica = recoveredWithOwnCommitSignedInView(5);

    assertThat(replica.step(commitFrom(0)).decisions()).isEmpty();
    assertThat(replica.step(commitFrom(2)).decisions()).isEmpty();
    Effects decided = replica.step(commitFrom(3));

    assertThat(signers(decided)).containsExactly(0, 2, 3);
    Decision decision = decided.decisions().getFirst();
    for (CommitSignature signature : decision.certificate()) {
      assertThat(keys.verifyCommit(signature.replica(), 0, digest, signature.signature())).isTrue();
    }
  }

  /** Replica 1 accepted, prepared and signed the proposal at 1 in view 0 before it crashed. */
  private Replica recoveredWithOwnCommitSignedInView(long signedView) {
    PrePrepare prePrepare = new PrePrepare(0, 1, digest, proposal, 0, vote(0));
    Prepare own = new Prepare(0, 1, digest, SELF, vote(SELF));
    Prepare other = new Prepare(0, 1, digest, 2, vote(2));
    Commit signed = new Commit(0, 1, digest, SELF, keys.signCommit(SELF, signedView, digest, 9));
    List<WalRecord> wal =
        List.of(
            new WalRecord.Accepted(prePrepare, own),
            new WalRecord.Prepared(new PreparedCertificate(prePrepare, List.of(own, other))),
            new WalRecord.Signed(signed));
    return Replica.recover(
        Cluster.simConfig(4).withSelf(SELF),
        new ReplicaServices(
            keys.crypto(SELF), keys.signer(SELF, new Random(SELF)), application, application),
        wal::forEach);
  }

  private byte[] vote(int replica) {
    return keys.crypto(replica).sign(SignedBytes.prepareVote(Epoch.GENESIS, 0, 1, digest));
  }

  private Event commitFrom(int replica) {
    return new Event.Received(
        replica, new Commit(0, 1, digest, replica, keys.signCommit(replica, 0, digest, replica)));
  }

  private static List<Integer> signers(Effects effects) {
    assertThat(effects.decisions()).hasSize(1);
    return effects.decisions().getFirst().certificate().stream()
        .map(CommitSignature::replica)
        .toList();
  }
}
