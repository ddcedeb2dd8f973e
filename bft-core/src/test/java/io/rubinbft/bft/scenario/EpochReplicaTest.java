package io.rubinbft.bft.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Handover;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Rejection;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.ReplicaStatus;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.MembershipApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One replica across an epoch switch: the handover (requests not executed, decided ids), the
 * epoch's end (nothing after an epoch-ending proposal), and signatures bound to the epoch.
 */
class EpochReplicaTest {

  private static final SimKeys KEYS = new SimKeys(4, 61);
  private static final RequestId A = new RequestId("client-0", "a");

  @Test
  void nothingIsProposedAfterAnEpochEndingProposal() {
    Replica old = single(Cluster.simConfig(1));
    List<Decision> decided = new ArrayList<>();
    decided.addAll(step(old, new Event.ClientRequest(request("a"))).decisions());
    decided.addAll(step(old, new Event.ClientRequest(change())).decisions());
    decided.addAll(step(old, new Event.ClientRequest(request("b"))).decisions());
    decided.addAll(step(old, new Event.ClientRequest(request("c"))).decisions());
    for (int tick = 0; tick < 100; tick++) {
      decided.addAll(step(old, new Event.Tick()).decisions());
    }
    assertThat(decided).extracting(Decision::sequence).containsExactly(1L, 2L);
    assertThat(old.status().pendingRequests()).isEqualTo(2);
  }

  @Test
  void handoverCarriesWhatWasNotExecutedAndTheDecidedIds() {
    Replica old = single(Cluster.simConfig(1));
    step(old, new Event.ClientRequest(request("a")));
    step(old, new Event.ClientRequest(change()));
    step(old, new Event.ClientRequest(request("b")));
    step(old, new Event.ClientRequest(request("c")));

    Handover atChange = old.handover(2);
    assertThat(atChange.pending()).extracting(r -> r.id().key()).containsExactly("b", "c");
    assertThat(atChange.decided()).extracting(RequestId::key).containsExactly("a", "members");

    // Ended at 1 instead, the decision at 2 is nobody's: its request is pending again.
    Handover atA = old.handover(1);
    assertThat(atA.pending()).extracting(r -> r.id().key()).containsExactly("members", "b", "c");
    assertThat(atA.decided()).extracting(RequestId::key).containsExactly("a");
  }

  @Test
  void newEpochOrdersTheHandoverAndRefusesWhatWasDecided() {
    Replica old = single(Cluster.simConfig(1));
    step(old, new Event.ClientRequest(request("a")));
    Decision anchor = step(old, new Event.ClientRequest(change())).decisions().getFirst();
    step(old, new Event.ClientRequest(request("b")));

    Replica next =
        Replica.start(Cluster.simConfig(1), services(0, List.of(0, 1)), anchor, old.handover(2));
    Effects first = step(next, new Event.Tick());
    assertThat(first.decisions()).hasSize(1);
    Decision decision = first.decisions().getFirst();
    assertThat(decision.sequence()).isEqualTo(3);
    assertThat(decision.proposal().previous()).isEqualTo(anchor.digest());
    assertThat(decision.proposal().requests()).extracting(r -> r.id().key()).containsExactly("b");

    Effects again = step(next, new Event.ClientRequest(request("a")));
    assertThat(again.rejected())
        .extracting(Rejection::reason)
        .containsExactly("duplicate: request client-0/a was decided already");
  }

  /** After a crash the WAL holds this epoch's decisions; the host's handover the older ids. */
  @Test
  void recoveryInsideAnEpochRemembersBothEpochsDecisions() {
    Replica old = single(Cluster.simConfig(1));
    step(old, new Event.ClientRequest(request("a")));
    Decision anchor = step(old, new Event.ClientRequest(change())).decisions().getFirst();
    ReplicaServices services = services(0, List.of(0, 1));
    Replica next = Replica.start(Cluster.simConfig(1), services, anchor, Handover.NONE);
    List<WalRecord> wal =
        new ArrayList<>(step(next, new Event.ClientRequest(request("b"))).persist());
    wal.addAll(step(next, new Event.ClientRequest(request("c"))).persist());

    Handover ledgerMemory = new Handover(List.of(), List.of(A));
    Replica recovered =
        Replica.recover(Cluster.simConfig(1), services, anchor, ledgerMemory, wal::forEach);
    assertThat(recovered.status().lastDelivered()).isEqualTo(4);
    assertThat(recovered.status().lowWatermark()).isEqualTo(2);
    for (String key : List.of("a", "b", "c")) {
      assertThat(step(recovered, new Event.ClientRequest(request(key))).rejected())
          .extracting(Rejection::reason)
          .containsExactly("duplicate: request client-0/" + key + " was decided already");
    }
    Decision d = step(recovered, new Event.ClientRequest(request("d"))).decisions().getFirst();
    assertThat(d.sequence()).isEqualTo(5);
  }

  @Test
  void handedOverRequestsBeyondThePoolLimitAreRejectedInTheFirstStep() {
    Replica old = single(Cluster.simConfig(1));
    Decision anchor = step(old, new Event.ClientRequest(change())).decisions().getFirst();
    step(old, new Event.ClientRequest(request("b")));
    step(old, new Event.ClientRequest(request("c")));
    ReplicaConfig tiny =
        new ReplicaConfig(
            1, 0, 1, 1 << 16, 2, 16, 4, 1, 1024, 60, 20, 8, 64, 16, Decisions.MAX_ANSWER_BYTES);

    Replica next = Replica.start(tiny, services(0, List.of(0, 1)), anchor, old.handover(1));
    Effects first = step(next, new Event.Tick());
    assertThat(first.rejected())
        .extracting(r -> r.id().key() + ": " + r.reason())
        .containsExactly("c: pool full: 1 requests pending, retry later");
  }

  /** Each statement is validly signed by its sender, but for another epoch at the same anchor. */
  @Test
  void votesOfAnotherEpochAreBadSignatures() {
    Decision anchor = EpochScenarioTest.anchor(10);
    Epoch other = new Epoch(10, new Digest(SimKeys.sha256(new byte[] {1})));
    Replica ownEpoch = backup(anchor);
    Replica otherEpoch = backup(anchor);

    receiveStatements(ownEpoch, Epoch.after(anchor), anchor);
    receiveStatements(otherEpoch, other, anchor);
    assertThat(ownEpoch.status().drops()).doesNotContainKey("bad signature");
    assertThat(otherEpoch.status().drops()).containsEntry("bad signature", 4L);
  }

  private static void receiveStatements(Replica replica, Epoch epoch, Decision anchor) {
    receive(replica, 2, prepare(epoch, 11));
    receive(replica, 2, checkpoint(epoch, 14, anchor.digest()));
    receive(replica, 2, viewChange(epoch, 2, anchor));
    receive(replica, 2, newView(epoch, 6));
  }

  /**
   * A prepare and a checkpoint at or below the anchor are votes the replica could not count
   * (delivered, at or below the stable checkpoint): ignored before any check, neither counted as a
   * drop nor acted on. A fetch for decisions of the previous epoch is refused as of another epoch.
   */
  @Test
  void statementsAtOrBelowTheAnchorAreOutsideTheEpoch() {
    Decision anchor = EpochScenarioTest.anchor(10);
    Replica replica = backup(anchor);
    Epoch epoch = Epoch.after(anchor);
    ReplicaStatus before = replica.status();
    receive(replica, 2, prepare(epoch, 10));
    receive(replica, 2, checkpoint(epoch, 8, anchor.digest()));
    receive(replica, 2, new FetchDecisions(10, anchor.digest(), 4, 2));
    ReplicaStatus after = replica.status();
    assertThat(after.drops()).containsExactly(Map.entry("other epoch", 1L));
    assertThat(after.lastDelivered()).isEqualTo(before.lastDelivered()).isEqualTo(10);
    assertThat(after.lowWatermark()).isEqualTo(before.lowWatermark());
  }

  @Test
  void backupRefusesAProposalAfterAnEpochEndingOne() {
    Replica backup =
        Replica.start(Cluster.simConfig(4).withSelf(1), services(1, List.of(0, 1, 2, 3)));
    PrePrepare first = prePrepare(1, Digest.GENESIS, List.of(change()));
    PrePrepare second = prePrepare(2, first.digest(), List.of(request("b")));
    receive(backup, 0, first);
    receive(backup, 0, second);
    assertThat(backup.status().drops()).containsEntry("epoch ended", 1L);
  }

  /** A Byzantine primary proposes a request again while its first proposal is still pending. */
  @Test
  void backupRefusesARequestProposedAtAnEarlierPendingSequence() {
    Replica backup =
        Replica.start(Cluster.simConfig(4).withSelf(1), services(1, List.of(0, 1, 2, 3)));
    PrePrepare first = prePrepare(1, Digest.GENESIS, List.of(request("a")));
    PrePrepare second = prePrepare(2, first.digest(), List.of(request("b"), request("a")));
    receive(backup, 0, first);
    receive(backup, 0, second);
    assertThat(backup.status().drops()).containsEntry("duplicate", 1L);
  }

  private static Replica single(ReplicaConfig config) {
    return Replica.start(config, services(0, List.of(0)));
  }

  private static Replica backup(Decision anchor) {
    return Replica.start(
        Cluster.simConfig(4).withSelf(1), services(1, List.of(0, 1, 2, 3)), anchor, Handover.NONE);
  }

  private static ReplicaServices services(int self, List<Integer> members) {
    MembershipApplication application = new MembershipApplication(members);
    return new ReplicaServices(
        KEYS.crypto(self), KEYS.signer(self, new Random(self)), application, application);
  }

  private static Effects step(Replica replica, Event event) {
    return replica.step(event);
  }

  private static void receive(Replica replica, int from, Message message) {
    replica.step(new Event.Received(from, message));
  }

  private static Request request(String key) {
    return new Request(new RequestId("client-0", key), key.getBytes(StandardCharsets.UTF_8));
  }

  private static Request change() {
    return MembershipApplication.change("members", List.of(0, 1));
  }

  private static Digest digest(int seed) {
    return new Digest(SimKeys.sha256(new byte[] {(byte) seed, 42}));
  }

  private static Prepare prepare(Epoch epoch, long sequence) {
    Digest digest = digest(3);
    byte[] vote = KEYS.crypto(2).sign(SignedBytes.prepareVote(epoch, 0, sequence, digest));
    return new Prepare(0, sequence, digest, 2, vote);
  }

  private static Checkpoint checkpoint(Epoch epoch, long sequence, Digest digest) {
    byte[] signature = KEYS.crypto(2).sign(SignedBytes.checkpoint(epoch, sequence, digest));
    return new Checkpoint(sequence, digest, 2, signature);
  }

  private static ViewChange viewChange(Epoch epoch, int sender, Decision anchor) {
    ViewChange unsigned =
        new ViewChange(
            1, anchor.sequence(), anchor.digest(), List.of(), null, List.of(), sender, null);
    return unsigned.withSignature(
        KEYS.crypto(sender).sign(SignedBytes.viewChange(epoch, unsigned)));
  }

  /** A new view from the primary of {@code view}, without view changes (its signature is first). */
  private static NewView newView(Epoch epoch, long view) {
    byte[] signature = KEYS.crypto(2).sign(SignedBytes.newView(epoch, view, List.of()));
    return new NewView(view, List.of(), List.of(), 2, signature);
  }

  private static PrePrepare prePrepare(long sequence, Digest previous, List<Request> batch) {
    Proposal proposal =
        new Proposal(
            sequence,
            previous,
            batch,
            new MembershipApplication(List.of(0, 1, 2, 3)).assemble(sequence, batch, null));
    Digest digest = SimKeys.digestOf(proposal);
    byte[] vote = KEYS.crypto(0).sign(SignedBytes.prepareVote(Epoch.GENESIS, 0, sequence, digest));
    return new PrePrepare(0, sequence, digest, proposal, 0, vote);
  }
}
