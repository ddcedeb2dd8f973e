package io.rubinbft.orderer.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.memory.MemoryBudgets;
import io.rubinbft.orderer.memory.MessageLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutboundQueueTest {

  private static final int VOTE = 300;

  /** Frames are compared by identity: the queue hands out the very arrays it was given. */
  private static final Comparator<byte[]> SAME = (a, b) -> a == b ? 0 : 1;

  /**
   * A maximal proposal between votes, with the node's budgets: nothing is dropped and the frames
   * leave in the order they came. Before the lanes the proposal, larger than the link budget,
   * pushed out the votes before it and the first vote after it pushed out the proposal.
   */
  @Test
  void aMaximalProposalAndTheVotesAroundItAreAllKeptInOrder() {
    OutboundQueue queue =
        new OutboundQueue(
            MemoryBudgets.standard().peerLinkBytes(), MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES);
    List<byte[]> sent = new ArrayList<>();
    int dropped = 0;
    for (int vote = 0; vote < 1_000; vote++) {
      sent.add(new byte[VOTE]);
      dropped += queue.add(sent.getLast());
      if (vote == 499) {
        sent.add(new byte[MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES]);
        dropped += queue.add(sent.getLast());
      }
    }

    assertThat(dropped).isZero();
    assertThat(drain(queue)).usingElementComparator(SAME).containsExactlyElementsOf(sent);
  }

  /**
   * Each lane holds its budget at most, dropping its own oldest frames: a flood of small frames
   * never pushes out a large one, nor a flood of large frames a small one.
   */
  @Test
  void eachLaneDropsOnlyItsOwnOldestFrames() {
    OutboundQueue queue = new OutboundQueue(10 * VOTE, 3L * (1 << 20));
    byte[] vote = new byte[VOTE];
    byte[] proposal = new byte[1 << 20];
    queue.add(vote);
    queue.add(proposal);

    int dropped = 0;
    for (int i = 0; i < 100; i++) {
      dropped += queue.add(new byte[VOTE]);
      dropped += queue.add(new byte[1 << 20]);
      assertThat(queue.bytes()).isLessThanOrEqualTo(10 * VOTE + 3L * (1 << 20));
    }

    assertThat(dropped).isEqualTo(200 - 10 - 3 + 2);
    List<byte[]> left = drain(queue);
    assertThat(left).hasSize(13).usingElementComparator(SAME).doesNotContain(vote, proposal);
  }

  /** A frame larger than its lane's budget alone replaces that lane, not the other. */
  @Test
  void aFrameLargerThanItsLaneReplacesOnlyThatLane() {
    OutboundQueue queue = new OutboundQueue(10 * VOTE, 1 << 20);
    byte[] vote = new byte[VOTE];
    byte[] proposal = new byte[100 << 10];
    byte[] huge = new byte[2 << 20];
    queue.add(vote);
    queue.add(proposal);

    assertThat(queue.add(huge)).isEqualTo(1);
    assertThat(drain(queue)).usingElementComparator(SAME).containsExactly(vote, huge);
  }

  private static List<byte[]> drain(OutboundQueue queue) {
    List<byte[]> frames = new ArrayList<>();
    for (byte[] frame = queue.peek(); frame != null; frame = queue.peek()) {
      frames.add(frame);
      queue.remove(frame);
    }
    return frames;
  }
}
