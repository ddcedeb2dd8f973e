package io.rubinbft.orderer.onboarding;

import io.rubinbft.orderer.client.BlockStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * Asks sources for their newest block, all at once: one Deliver call per source is opened before
 * any answer is read, and all share one deadline, so a silent source costs the timeout once, not
 * once per source. Each call holds at most one block ({@link BlockStream}), so memory is bounded by
 * the number of sources, which the channel config names.
 */
final class HeightProbe {

  /** What one source answered. */
  sealed interface Answer {
    SourcePool.Source source();

    /** Its newest block, as it claims it: nothing about it is checked. */
    record Newest(SourcePool.Source source, Block block) implements Answer {

      /**
       * The height the block shows; an unsigned block number beyond Java's long is as high as it
       * gets.
       */
      long height() {
        long number = block.getHeader().getNumber();
        return number < 0 || number == Long.MAX_VALUE ? Long.MAX_VALUE : number + 1;
      }
    }

    /** No newest block, and why. */
    record Silent(SourcePool.Source source, String reason) implements Answer {}
  }

  private HeightProbe() {}

  /**
   * The answers of {@code sources} to {@code seekNewest}, in their order, within {@code timeout}.
   */
  static List<Answer> ask(List<SourcePool.Source> sources, Envelope seekNewest, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<BlockStream> calls = new ArrayList<>(sources.size());
    try {
      for (SourcePool.Source source : sources) {
        calls.add(BlockStream.open(source.channel(), seekNewest));
      }
      List<Answer> answers = new ArrayList<>(sources.size());
      for (int i = 0; i < sources.size(); i++) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        answers.add(answer(sources.get(i), calls.get(i).next(left), timeout));
      }
      return answers;
    } finally {
      calls.forEach(BlockStream::close);
    }
  }

  private static Answer answer(SourcePool.Source source, BlockStream.Next next, Duration timeout) {
    return switch (next) {
      case BlockStream.Next.Received received -> new Answer.Newest(source, received.block());
      case BlockStream.Next.Ended ended ->
          new Answer.Silent(
              source, "answered " + ended.status() + " when asked for its newest block");
      case BlockStream.Next.Failed failed -> new Answer.Silent(source, failed.reason());
      case BlockStream.Next.TimedOut timedOut ->
          new Answer.Silent(source, "told no newest block within " + timeout);
    };
  }
}
