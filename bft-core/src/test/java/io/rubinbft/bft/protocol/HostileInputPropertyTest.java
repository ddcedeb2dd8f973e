package io.rubinbft.bft.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.Status;
import io.rubinbft.bft.message.ViewChange;
import io.rubinbft.bft.sim.Cluster;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md principle 6: nothing a peer sends can throw inside a replica. Seeded random
 * messages with null fields, garbage signatures, wrong senders, odd views and sequences are fed to
 * a replica; every one is either processed or dropped and counted, none throws.
 */
class HostileInputPropertyTest {

  @Test
  void randomHostileMessagesAreDroppedNotThrown() {
    long seed = Long.getLong("property.seed", 7);
    Random random = new Random(seed);
    SimKeys keys = new SimKeys(4, seed);
    SimApplication application = new SimApplication();
    Replica replica =
        Replica.start(
            Cluster.simConfig(4).withSelf(1),
            new ReplicaServices(
                keys.crypto(1), keys.signer(1, new Random(seed)), application, application));
    for (int i = 0; i < 20_000; i++) {
      int from = random.nextInt(6) - 1;
      Message message = randomMessage(random, from);
      replica.step(new Event.Received(from, message));
      if (i % 50 == 0) {
        replica.step(new Event.Tick());
      }
    }
    long dropped = replica.status().drops().values().stream().mapToLong(Long::longValue).sum();
    assertThat(dropped).as("seed %d", seed).isGreaterThan(10_000);
  }

  private static Message randomMessage(Random random, int from) {
    int sender = random.nextInt(4) == 0 ? random.nextInt(6) - 1 : from;
    long view = random.nextInt(4) - 1L;
    long sequence = random.nextInt(40) - 2L;
    Digest digest = random.nextInt(5) == 0 ? null : digest(random);
    byte[] signature = random.nextInt(5) == 0 ? null : bytes(random, 1 + random.nextInt(20));
    return switch (random.nextInt(9)) {
      case 0 ->
          new PrePrepare(view, sequence, digest, proposal(random, sequence), sender, signature);
      case 1 -> new Prepare(view, sequence, digest, sender, signature);
      case 2 -> new Commit(view, sequence, digest, sender, signature);
      case 3 -> new Checkpoint(sequence, digest, sender, signature);
      case 4 -> viewChange(random, view, sender, signature);
      case 5 ->
          new NewView(
              view,
              List.of(viewChange(random, view, sender, signature)),
              List.of(),
              sender,
              signature);
      case 6 -> new Status(view, random.nextBoolean(), sequence, sender);
      case 7 -> new FetchDecisions(sequence, Digest.GENESIS, random.nextInt(5) - 1, sender);
      default ->
          new Decisions(
              List.of(
                  new Decision(
                      proposal(random, sequence),
                      digest,
                      Math.max(view, 0),
                      List.of(new CommitSignature(random.nextInt(6) - 1, signature)))),
              sender);
    };
  }

  private static ViewChange viewChange(Random random, long view, int sender, byte[] signature) {
    Proposal proposal = proposal(random, 3);
    PrePrepare prePrepare = new PrePrepare(view, 3, digest(random), proposal, sender, signature);
    return new ViewChange(
        view + 1,
        random.nextInt(3) * 4L,
        digest(random),
        List.of(new Checkpoint(4, digest(random), sender, signature)),
        null,
        List.of(new PreparedCertificate(prePrepare, List.of())),
        sender,
        signature);
  }

  private static Proposal proposal(Random random, long sequence) {
    if (random.nextInt(6) == 0) {
      return null;
    }
    List<Request> requests =
        List.of(new Request(new RequestId("c", "k" + random.nextInt(5)), bytes(random, 10)));
    return new Proposal(
        Math.max(1, sequence), digest(random), requests, bytes(random, random.nextInt(50)));
  }

  private static Digest digest(Random random) {
    return new Digest(bytes(random, 32));
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
