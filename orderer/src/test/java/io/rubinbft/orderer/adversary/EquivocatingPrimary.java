package io.rubinbft.orderer.adversary;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Epoch;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.FetchDecisions;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.SignedBytes;
import io.rubinbft.bft.message.Status;
import io.rubinbft.orderer.block.BlockAssembler;
import io.rubinbft.orderer.block.LastConfigIndex;
import io.rubinbft.orderer.block.ProposalBlocks;
import io.rubinbft.orderer.block.ViewMetadata;
import io.rubinbft.orderer.consensus.FabricRequests;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.hyperledger.fabric.protos.common.Block;

/**
 * The {@link ByzantineConsenter} as the primary of the view the honest replicas are in, proposing
 * validly built and signed blocks of fresh, validly signed envelopes, but different ones to
 * different replicas for one sequence, with pre-prepares and commits that contradict each other.
 *
 * <p>Two rounds, one sequence each:
 *
 * <ol>
 *   <li><b>Two against one</b>: block A to two honest replicas, block B to the third, each with the
 *       primary's commit signature for what it got, and prepares for the other block besides. The
 *       two that got A hold a quorum with the primary's vote: A must be decided, by all three (the
 *       third replaces B by the decision it fetches), and B never.
 *   <li><b>Three ways</b>: blocks C0, C1, C2 at the next sequence, one to each honest replica, and
 *       a second pre-prepare (another block) to one of them. No block can gather a quorum; the
 *       primary then stays silent, and the honest replicas must leave its view when their clients'
 *       requests time out, deciding none of the C blocks.
 * </ol>
 */
final class EquivocatingPrimary {

  /** What the attack proposed: the block that must be decided, and those that must never be. */
  record Outcome(long view, long twoAgainstOne, String decided, List<String> neverDecided) {}

  /** How long the honest replicas may take to show the primary their statuses and decisions. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final ByzantineConsenter byzantine;
  private final EnvelopeFactory client;
  private final String channel;
  private final List<Integer> honest = new ArrayList<>();

  EquivocatingPrimary(ByzantineConsenter byzantine, EnvelopeFactory client, String channel) {
    this.byzantine = byzantine;
    this.client = client;
    this.channel = channel;
    for (int replica = 0; replica < byzantine.replicas(); replica++) {
      if (replica != byzantine.self()) {
        honest.add(replica);
      }
    }
  }

  /**
   * The view the honest replicas are in, once each has sent a fresh status naming it installed,
   * with the same delivered height; empty if that view's primary is not this consenter.
   */
  Optional<Status> ledView() throws InterruptedException {
    long since = System.nanoTime();
    Status[] agreed = new Status[1];
    await(
        "every honest replica to report the same installed view and height",
        () -> {
          Map<Integer, ByzantineConsenter.Heard<Status>> statuses = byzantine.statuses();
          Status first = null;
          for (int replica : honest) {
            ByzantineConsenter.Heard<Status> heard = statuses.get(replica);
            if (heard == null || heard.nanos() < since || !heard.message().viewInstalled()) {
              return false;
            }
            Status status = heard.message();
            if (first == null) {
              first = status;
            } else if (status.view() != first.view()
                || status.lastDelivered() != first.lastDelivered()) {
              return false;
            }
          }
          agreed[0] = first;
          return true;
        });
    Status status = agreed[0];
    return status.view() % byzantine.replicas() == byzantine.self()
        ? Optional.of(status)
        : Optional.empty();
  }

  /** Runs both rounds in {@code view}, whose replicas all delivered up to {@code height}. */
  Outcome equivocate(long view, long height) throws InterruptedException {
    Decision last = fetchDecision(height);
    long s = height + 1;
    Proposed a = propose(s, last.proposal(), last.digest(), "A");
    Proposed b = propose(s, last.proposal(), last.digest(), "B");
    for (int i = 0; i < honest.size(); i++) {
      Proposed mine = i < 2 ? a : b;
      Proposed other = i < 2 ? b : a;
      int replica = honest.get(i);
      send(replica, prePrepare(view, mine));
      send(replica, prepare(view, other));
      send(replica, commit(view, mine));
    }
    // The two given A hold a quorum with the primary's commit: they decide it at once.
    Decision decidedA = fetchDecision(s);
    if (!decidedA.digest().equals(a.digest())) {
      throw new AssertionError(
          "sequence " + s + " was decided as " + decidedA.digest() + ", not as A " + a.digest());
    }
    long next = s + 1;
    List<Proposed> threeWays = new ArrayList<>();
    for (int i = 0; i < honest.size(); i++) {
      threeWays.add(propose(next, decidedA.proposal(), decidedA.digest(), "C" + i));
    }
    Proposed second = propose(next, decidedA.proposal(), decidedA.digest(), "D");
    for (int i = 0; i < honest.size(); i++) {
      int replica = honest.get(i);
      send(replica, prePrepare(view, threeWays.get(i)));
      send(replica, commit(view, threeWays.get(i)));
      send(replica, prepare(view, threeWays.get((i + 1) % honest.size())));
    }
    // A second pre-prepare for the same sequence and view to one replica: "equivocation".
    send(honest.getFirst(), prePrepare(view, second));
    List<String> never = new ArrayList<>(List.of(b.txId(), second.txId()));
    threeWays.forEach(proposed -> never.add(proposed.txId()));
    return new Outcome(view, s, a.txId(), never);
  }

  /** A proposal and its digest; its one envelope's transaction id. */
  private record Proposed(Proposal proposal, Digest digest, String txId) {}

  /**
   * The block at {@code sequence} after {@code previous}, as the primary's assembler builds it
   * (FabricProposals), holding one fresh envelope of the channel's client.
   */
  private Proposed propose(long sequence, Proposal previous, Digest previousDigest, String name) {
    Block previousBlock;
    try {
      previousBlock = Block.parseFrom(previous.payload());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("decided proposal " + previous.sequence() + " is no block");
    }
    EnvelopeFactory.SignedEnvelope envelope =
        client.transaction(
            channel, ("equivocation " + name + " at " + sequence).getBytes(StandardCharsets.UTF_8));
    byte[] bytes = envelope.envelope().toByteArray();
    Request request = FabricRequests.ofOrdered(bytes, byzantine.keys().sha256());
    Block block =
        BlockAssembler.assemble(
            previousBlock.getHeader(),
            List.of(ByteString.copyFrom(bytes)),
            LastConfigIndex.of(previousBlock),
            ViewMetadata.ofSequence(0, sequence, 0).toByteString());
    Proposal proposal =
        new Proposal(sequence, previousDigest, List.of(request), ProposalBlocks.payload(block));
    Digest digest = new Digest(byzantine.keys().votes().digest(SignedBytes.proposal(proposal)));
    return new Proposed(proposal, digest, envelope.txId());
  }

  private byte[] prePrepare(long view, Proposed proposed) {
    long sequence = proposed.proposal().sequence();
    return byzantine.encode(
        new PrePrepare(
            view,
            sequence,
            proposed.digest(),
            proposed.proposal(),
            byzantine.self(),
            vote(view, sequence, proposed.digest())));
  }

  private byte[] prepare(long view, Proposed proposed) {
    long sequence = proposed.proposal().sequence();
    return byzantine.encode(
        new Prepare(
            view,
            sequence,
            proposed.digest(),
            byzantine.self(),
            vote(view, sequence, proposed.digest())));
  }

  private byte[] commit(long view, Proposed proposed) {
    return byzantine.encode(
        new Commit(
            view,
            proposed.proposal().sequence(),
            proposed.digest(),
            byzantine.self(),
            byzantine.keys().commits().signProposal(view, proposed.proposal())));
  }

  private byte[] vote(long view, long sequence, Digest digest) {
    return byzantine
        .keys()
        .votes()
        .sign(SignedBytes.prepareVote(Epoch.GENESIS, view, sequence, digest));
  }

  /**
   * The decision at {@code sequence}, asked of each honest replica in turn, half a second apart,
   * until one answers.
   */
  private Decision fetchDecision(long sequence) throws InterruptedException {
    int[] polls = {0};
    await(
        "an honest replica to answer for decision " + sequence,
        () -> {
          if (byzantine.decision(sequence).isPresent()) {
            return true;
          }
          int poll = polls[0]++;
          if (poll % 10 == 0) {
            send(
                honest.get(poll / 10 % honest.size()),
                byzantine.encode(
                    new FetchDecisions(sequence, Digest.GENESIS, 1, byzantine.self())));
          }
          return false;
        });
    return byzantine.decision(sequence).orElseThrow();
  }

  private void send(int replica, byte[] message) {
    byzantine.sendTo(replica, 0, message);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited " + PATIENCE.toSeconds() + " s for " + what);
      }
      Thread.sleep(50);
    }
  }
}
