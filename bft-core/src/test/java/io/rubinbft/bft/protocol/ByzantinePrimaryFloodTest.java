package io.rubinbft.bft.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.sim.SimApplication;
import io.rubinbft.bft.sim.SimKeys;
import io.rubinbft.bft.spi.ReplicaServices;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What a Byzantine primary can make a backup hold: the host sizes a channel's heap for a window of
 * proposals at the cap in flight (and a window of decided blocks), so no flood may leave more. The
 * primary signs valid, chained, maximal proposals at every sequence far beyond the window, twice
 * over (an equivocating second branch), the first branch last sequence first so each waits for its
 * predecessor; after the flood at most a window of proposals is reachable from the replica, the
 * rest dropped and counted.
 */
class ByzantinePrimaryFloodTest {

  private static final int WINDOW = 16;
  private static final int BATCH_COUNT = 16;
  private static final int REQUEST_BYTES = 60_000;
  private static final int SEQUENCES = 10 * WINDOW;

  private final SimKeys keys = new SimKeys(4, 11);
  private final SimApplication application = new SimApplication();
  private final List<WeakReference<byte[]>> sent = new ArrayList<>();

  @Test
  void aFloodOfMaximalProposalsLeavesAtMostAWindowOfThemHeld() {
    ReplicaConfig config =
        new ReplicaConfig(
            4,
            1,
            BATCH_COUNT,
            1L << 20,
            2,
            WINDOW,
            4,
            500,
            64 << 10,
            60,
            20,
            8,
            WINDOW,
            10_000,
            Decisions.MAX_ANSWER_BYTES);
    Replica backup =
        Replica.start(
            config,
            new ReplicaServices(
                keys.crypto(1), keys.signer(1, new Random(1)), application, application));

    flood(backup);

    long held = reachableRequests();
    assertThat(held * REQUEST_BYTES)
        .as(
            "request bytes of %d proposals reachable (replay: ./test.sh -pl bft-core"
                + " -Dtest=ByzantinePrimaryFloodTest)",
            held / BATCH_COUNT)
        .isLessThanOrEqualTo((long) WINDOW * BATCH_COUNT * REQUEST_BYTES);
    assertThat(held).as("the window's proposals are held").isEqualTo(WINDOW * BATCH_COUNT);
    assertThat(backup.status().drops().keySet())
        .anyMatch(reason -> reason.startsWith("outside window"))
        .anyMatch(reason -> reason.startsWith("equivocation"));
  }

  /**
   * The same flood against a window counted in bytes that binds before the window in proposals
   * does: the backup holds at most twice the window's bytes of proposals (three of the sixteen the
   * window in sequences would allow), and drops the rest as over its budget.
   */
  @Test
  void aFloodOfMaximalProposalsLeavesAtMostTheBackupsWindowBytesHeld() {
    long windowBytes = (3L << 20) / 2;
    ReplicaConfig config =
        new ReplicaConfig(
            4,
            1,
            BATCH_COUNT,
            1L << 20,
            2,
            WINDOW,
            4,
            500,
            64 << 10,
            60,
            20,
            8,
            1,
            10_000,
            Decisions.MAX_ANSWER_BYTES,
            windowBytes);
    Replica backup =
        Replica.start(
            config,
            new ReplicaServices(
                keys.crypto(1), keys.signer(1, new Random(1)), application, application));

    flood(backup);

    long held = reachableRequests();
    assertThat(held * REQUEST_BYTES)
        .as(
            "request bytes of %d proposals reachable (replay: ./test.sh -pl bft-core"
                + " -Dtest=ByzantinePrimaryFloodTest)",
            held / BATCH_COUNT)
        .isLessThanOrEqualTo(config.backupWindowBytes());
    assertThat(held).as("the budget's proposals are held").isEqualTo(3 * BATCH_COUNT);
    assertThat(backup.status().drops().keySet())
        .anyMatch(reason -> reason.startsWith("over window bytes"))
        .anyMatch(reason -> reason.startsWith("equivocation"));
  }

  /**
   * The primary's flood, in a method of its own so that none of it stays reachable from the test's
   * frame afterwards.
   */
  private void flood(Replica backup) {
    List<PrePrepare> first = branch(0);
    for (int sequence = SEQUENCES; sequence >= 1; sequence--) {
      backup.step(new Event.Received(0, first.get(sequence - 1)));
    }
    for (PrePrepare equivocation : branch(1)) {
      backup.step(new Event.Received(0, equivocation));
    }
  }

  /** Signed pre-prepares of view 0 for sequences 1 to SEQUENCES, each proposal chained and full. */
  private List<PrePrepare> branch(int branch) {
    List<PrePrepare> prePrepares = new ArrayList<>();
    Proposal previous = null;
    Digest previousDigest = Digest.GENESIS;
    for (long sequence = 1; sequence <= SEQUENCES; sequence++) {
      List<Request> requests = new ArrayList<>();
      for (int i = 0; i < BATCH_COUNT; i++) {
        byte[] payload = new byte[REQUEST_BYTES];
        payload[0] = (byte) branch;
        sent.add(new WeakReference<>(payload));
        requests.add(new Request(new RequestId("c" + branch, sequence + "-" + i), payload));
      }
      byte[] header = application.assemble(sequence, requests, previous);
      Proposal proposal = new Proposal(sequence, previousDigest, requests, header);
      Digest digest = SimKeys.digestOf(proposal);
      byte[] vote =
          keys.crypto(0).sign(SignedBytes.prepareVote(Epoch.GENESIS, 0, sequence, digest));
      prePrepares.add(new PrePrepare(0, sequence, digest, proposal, 0, vote));
      previous = proposal;
      previousDigest = digest;
    }
    return prePrepares;
  }

  /** How many of the requests sent are still reachable, after collecting what is not. */
  private long reachableRequests() {
    long reachable = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      System.gc();
      reachable = sent.stream().filter(reference -> reference.get() != null).count();
    }
    return reachable;
  }
}
